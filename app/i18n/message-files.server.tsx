import assets from "virtual:catalogue-assets";
import { preload } from "react-dom";
import type { EntryContext } from "react-router";
import { messagesFileFor } from "./messages-file";
import type { Locale } from "./translator.server";

/**
 * The messages files (ADR 030) the browser will fetch for this page, hinted
 * after the first paint beside the scripts (ADR 035): the areas
 * imported by the client chunks of the entry and of each matched route module
 * (React Router's manifest lists each route's module and the chunks it imports).
 * Empty in development, where the messages are inside the modules.
 */
export function messageFilesFor(context: EntryContext, locale: Locale): string[] {
  const { manifest, staticHandlerContext } = context;
  const chunks = [manifest.entry.module, ...manifest.entry.imports];
  for (const match of staticHandlerContext.matches) {
    const route = manifest.routes[match.route.id];
    if (route) chunks.push(route.module, ...(route.imports ?? []));
  }
  const areas = new Set(chunks.flatMap((chunk) => assets.chunks[chunk] ?? []));
  return [...areas].sort().map((area) => messagesFileFor(assets.files[area], locale));
}

/**
 * Hints the page's messages files in its <head> (React puts preloads there) so
 * they download alongside the scripts, not after them, on pages that hydrate
 * at once (the others hint them after the first paint, ADR 035). `crossOrigin`
 * makes the preload match the script's plain `fetch()` (CORS mode, same-origin credentials).
 */
export function MessagePreloads({ files }: { files: readonly string[] }) {
  for (const file of files) preload(file, { as: "fetch", crossOrigin: "anonymous" });
  return null;
}
