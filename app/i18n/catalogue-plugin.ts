import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import type { Plugin } from "vite";

/**
 * Message catalogues are ICU MessageFormat JSON files, one per area and
 * language: app/i18n/<lang>/<area>.json. Importing "virtual:catalogue/<area>"
 * compiles that area's messages at build time (so browsers get Lingui's small
 * runtime and no message parser) and loads them into the shared i18n instance.
 *
 * Where the compiled messages live (ADR 030):
 * - on the server (and in development and tests), inside the module, every language;
 * - in the browser build, in a static JSON file per area and language
 *   (/assets/<area>-<hash>.<lang>.json). The module is a few bytes that fetch
 *   the file for the page's language (<html lang>) with top-level await, so
 *   nothing that imports it runs before its messages are there, and a language
 *   costs the browser no JavaScript.
 * The client build records which chunks import which areas; the server build
 * gets that map as "virtual:catalogue-assets" and hints the files of a page's
 * routes early (app/i18n/message-files.server.tsx).
 */
const PREFIX = "virtual:catalogue/";
const RESOLVED = "\0catalogue:";
const ASSETS_ID = "virtual:catalogue-assets";
const RESOLVED_ASSETS = "\0catalogue-assets";
/** Languages with catalogues; the languages served are SERVED_LOCALES (translator.server.ts). */
export const LOCALES = ["en", "si", "ta"] as const;

/** What the client build tells the server build (ADR 030). */
export type CatalogueAssets = {
  /** "/assets/<area>-<hash>.en.json" per area; other languages: messagesFileFor (messages-file.ts). */
  files: Record<string, string>;
  /** The areas whose messages each client chunk ("/assets/x.js") loads. */
  chunks: Record<string, string[]>;
};

export function flattenMessages(
  node: unknown,
  prefix: string,
  out: Record<string, string> = {},
): Record<string, string> {
  if (typeof node === "string") {
    out[prefix] = node;
  } else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) flattenMessages(value, `${prefix}.${key}`, out);
  } else {
    throw new Error(`Catalogue entry ${prefix} must be a string, an object or an array`);
  }
  return out;
}

/** "old-browse" -> "oldBrowse": the key prefix of an area's messages. */
export function areaKey(area: string): string {
  return area.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

export function readCatalogue(root: string, locale: string, area: string): Record<string, string> {
  const file = path.join(root, "app", "i18n", locale, `${area}.json`);
  return flattenMessages(JSON.parse(fs.readFileSync(file, "utf8")), areaKey(area));
}

export function cataloguePlugin(): Plugin {
  let root = process.cwd();
  let build = false;
  let base = "/";
  // Filled by the client build, read by the server build that follows it.
  const assets: CatalogueAssets = { files: {}, chunks: {} };
  let clientBuilt = false;

  return {
    name: "bodima-catalogue",
    enforce: "pre",
    configResolved(config) {
      root = config.root;
      build = config.command === "build";
      base = config.base;
    },
    resolveId(id) {
      if (id === ASSETS_ID) return RESOLVED_ASSETS;
      if (id.startsWith(PREFIX)) return RESOLVED + id.slice(PREFIX.length);
      return null;
    },
    load(id, options) {
      const inBrowser = this.environment ? this.environment.config.consumer === "client" : !options?.ssr;
      if (id === RESOLVED_ASSETS) {
        if (build && !clientBuilt) throw new Error(`${ASSETS_ID}: the client build must run before the server build`);
        return `export default ${JSON.stringify(assets)};\n`;
      }
      if (!id.startsWith(RESOLVED)) return null;
      const area = id.slice(RESOLVED.length);
      if (!/^[a-z][a-z-]*$/.test(area)) throw new Error(`Bad catalogue name: ${area}`);
      const compiled: Record<string, Record<string, unknown>> = {};
      for (const locale of LOCALES) {
        const file = path.join(root, "app", "i18n", locale, `${area}.json`);
        this.addWatchFile(file);
        const messages = readCatalogue(root, locale, area);
        compiled[locale] = Object.fromEntries(Object.entries(messages).map(([k, v]) => [k, compileMessage(v)]));
      }
      if (!(build && inBrowser)) {
        return `import { loadAllLanguages } from "/app/i18n/instance.ts";\nloadAllLanguages(${JSON.stringify(compiled)});\n`;
      }
      // One hash for all languages of an area, so the browser needs one file name per area.
      const hash = createHash("sha256").update(JSON.stringify(compiled)).digest("base64url").slice(0, 8);
      let enRef = "";
      for (const locale of LOCALES) {
        const ref = this.emitFile({
          type: "asset",
          fileName: `assets/${area}-${hash}.${locale}.json`,
          source: JSON.stringify(compiled[locale]),
        });
        if (locale === "en") enRef = ref;
      }
      assets.files[area] = `${base}assets/${area}-${hash}.en.json`;
      return `import { loadMessages } from "/app/i18n/load-messages.ts";\nawait loadMessages(import.meta.ROLLUP_FILE_URL_${enRef});\n`;
    },
    generateBundle(_options, bundle) {
      if (this.environment?.config.consumer !== "client") return;
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk") continue;
        const areas = chunk.moduleIds.filter((m) => m.startsWith(RESOLVED)).map((m) => m.slice(RESOLVED.length));
        if (areas.length > 0) assets.chunks[`${base}${chunk.fileName}`] = areas.sort();
      }
      clientBuilt = true;
    },
  };
}
