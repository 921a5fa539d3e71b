// What `npm run build` adds for the installable app (ADR 088): the service worker with this
// build's precache list and texts, one web app manifest per language, and the icons.
// Pure functions of the build folder and the catalogues; scripts/pwa.ts writes their results.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { readCatalogue } from "../../app/i18n/catalogue-plugin.ts";

export const PWA_LOCALES = ["en", "si", "ta"] as const;
export type PwaLocale = (typeof PWA_LOCALES)[number];

/** brand-700 (app/app.css), the header's colour and the `theme-color` meta of every page. */
export const THEME_COLOR = "#0d5f54";
export const BACKGROUND_COLOR = "#ffffff";

/** The icons scripts/pwa.ts draws from public/favicon.svg; the maskable one keeps its mark in the middle 80%. */
export const ICONS = [
  { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
  { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
  { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
] as const;

/** Where a page in `locale` finds its manifest (the page's head links it: app/entry.server.tsx). */
export function manifestPath(locale: string): string {
  return `/manifest.${locale}.webmanifest`;
}

/** The placeholder in scripts/pwa/service-worker.js that the build's values replace. */
const PLACEHOLDER = "self.__BODIMA_BUILD__";

/**
 * Hashed scripts, styles, fonts and message files of the browser build (URL paths): what a page of
 * this build loads. The message files too: a route module waits for its messages (ADR 030), and
 * React Router reloads the page when a module cannot load, so an offline 'Save' needs them.
 */
export function precacheList(clientDir: string): string[] {
  const assets = path.join(clientDir, "assets");
  if (!fs.existsSync(assets)) return [];
  return fs
    .readdirSync(assets, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(?:js|css|woff2|json)$/.test(entry.name))
    .map((entry) => `/${path.relative(clientDir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/")}`)
    .sort();
}

export type WorkerTexts = Record<
  PwaLocale,
  { title: string; text: string; shortlist: string; retry: string; post: string; savedOn: string }
>;

/** The worker's texts, each language from its catalogue (app/i18n/<lang>/offline.json). */
export function workerTexts(root: string): WorkerTexts {
  const entries = PWA_LOCALES.map((locale) => {
    const m = readCatalogue(root, locale, "offline");
    const text = {
      title: m["offline.page.title"],
      text: m["offline.page.text"],
      shortlist: m["offline.page.shortlist"],
      retry: m["offline.page.retry"],
      post: m["offline.post.text"],
      savedOn: m["offline.savedOn"],
    };
    return [locale, text] as const;
  });
  return Object.fromEntries(entries) as WorkerTexts;
}

/** The web app manifest of one language: installed from /si, the app opens in Sinhala. */
export function manifestFor(root: string, locale: PwaLocale) {
  const m = readCatalogue(root, locale, "offline");
  const home = locale === "en" ? "/" : `/${locale}/`;
  return {
    id: home,
    name: m["offline.manifest.name"],
    short_name: m["offline.manifest.shortName"],
    description: m["offline.manifest.description"],
    lang: locale,
    dir: "ltr",
    start_url: home,
    scope: home,
    display: "standalone",
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    icons: ICONS,
  };
}

/**
 * The worker's source with this build's values in place of its placeholder. The version is a hash
 * of everything the worker holds, so any change to the build gives new cache names.
 */
export function injectWorker(template: string, precache: readonly string[], texts: WorkerTexts): string {
  const at = template.indexOf(PLACEHOLDER);
  if (at === -1 || template.indexOf(PLACEHOLDER, at + 1) !== -1)
    throw new Error(`service-worker.js must name ${PLACEHOLDER} exactly once`);
  const files = [...precache, ...ICONS.map((icon) => icon.src)];
  const version = createHash("sha256")
    .update(JSON.stringify([template, files, texts]))
    .digest("hex")
    .slice(0, 12);
  const build = JSON.stringify({ version, precache: files, texts, themeColor: THEME_COLOR });
  return template.slice(0, at) + build.replaceAll("<", "\\u003c") + template.slice(at + PLACEHOLDER.length);
}
