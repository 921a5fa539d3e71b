import fs from "node:fs";
import path from "node:path";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import type { Plugin } from "vite";

/**
 * Message catalogues are ICU MessageFormat JSON files, one per area and
 * language: app/i18n/<lang>/<area>.json. Importing "virtual:catalogue/<area>"
 * compiles that area's messages at build time (so browsers get Lingui's small
 * runtime and no message parser) and loads them into the shared i18n instance.
 * Each page's JavaScript thus carries only the areas its components use.
 */
const PREFIX = "virtual:catalogue/";
const RESOLVED = "\0catalogue:";
export const LOCALES = ["en"] as const;

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
  return {
    name: "bodima-catalogue",
    enforce: "pre",
    configResolved(config) {
      root = config.root;
    },
    resolveId(id) {
      if (id.startsWith(PREFIX)) return RESOLVED + id.slice(PREFIX.length);
      return null;
    },
    load(id) {
      if (!id.startsWith(RESOLVED)) return null;
      const area = id.slice(RESOLVED.length);
      if (!/^[a-z][a-z-]*$/.test(area)) throw new Error(`Bad catalogue name: ${area}`);
      const compiled: Record<string, unknown> = {};
      for (const locale of LOCALES) {
        const file = path.join(root, "app", "i18n", locale, `${area}.json`);
        this.addWatchFile(file);
        const messages = readCatalogue(root, locale, area);
        compiled[locale] = Object.fromEntries(Object.entries(messages).map(([k, v]) => [k, compileMessage(v)]));
      }
      return `import { i18n } from "/app/i18n/instance.ts";\ni18n.load(${JSON.stringify(compiled)});\n`;
    },
  };
}
