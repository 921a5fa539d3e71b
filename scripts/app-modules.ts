// App modules use extensionless imports, the `~` alias and the virtual message
// catalogues (app/i18n/catalogue-plugin.ts), which plain Node cannot resolve.
// Command-line scripts teach Node those three with in-thread module hooks
// (node:module registerHooks) and let Node strip the types itself, instead of
// starting Vite's module runner: see docs/decisions/071-scripts-without-vite.md.
import fs from "node:fs";
import { enableCompileCache, registerHooks } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import { LOCALES, readCatalogue } from "../app/i18n/catalogue-plugin.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const appDir = path.join(root, "app");

const CATALOGUE = "virtual:catalogue/";
const CATALOGUE_ASSETS = "virtual:catalogue-assets";
const CATALOGUE_URL = "bodima-catalogue:";
const CATALOGUE_ASSETS_URL = "bodima-catalogue-assets:";
/** How Vite resolves an extensionless app import (vite.config.ts uses its defaults). */
const EXTENSIONS = ["", ".ts", ".tsx", ".js", "/index.ts", "/index.tsx"];

function resolveFile(base: string): string | null {
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    if (fs.statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
  }
  return null;
}

/** What Vite's development server returns for `virtual:catalogue/<area>`: every language, compiled. */
function catalogueModule(area: string): string {
  if (!/^[a-z][a-z-]*$/.test(area)) throw new Error(`Bad catalogue name: ${area}`);
  const compiled = Object.fromEntries(
    LOCALES.map((locale) => [
      locale,
      Object.fromEntries(Object.entries(readCatalogue(root, locale, area)).map(([k, v]) => [k, compileMessage(v)])),
    ]),
  );
  const instance = pathToFileURL(path.join(appDir, "i18n", "instance.ts")).href;
  return `import { loadAllLanguages } from ${JSON.stringify(instance)};\nloadAllLanguages(${JSON.stringify(compiled)});\n`;
}

let registered = false;

function registerAppHooks(): void {
  if (registered) return;
  registered = true;
  // Node caches what it compiled (types stripped) in the system's temporary
  // directory, keyed by the source: a second run skips most of the work
  // (ADR 071 has the figures).
  enableCompileCache();
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier.startsWith(CATALOGUE)) {
        return { url: CATALOGUE_URL + specifier.slice(CATALOGUE.length), shortCircuit: true };
      }
      if (specifier === CATALOGUE_ASSETS) return { url: CATALOGUE_ASSETS_URL, shortCircuit: true };
      const fromApp = context.parentURL?.startsWith(pathToFileURL(appDir).href) ?? false;
      let base: string | null = null;
      if (specifier.startsWith("~/")) base = path.join(appDir, specifier.slice(2));
      else if (fromApp && (specifier.startsWith("./") || specifier.startsWith("../")) && context.parentURL) {
        base = fileURLToPath(new URL(specifier, context.parentURL));
      }
      if (base !== null) {
        const [file, query] = base.split("?");
        const found = resolveFile(file);
        // `?url` imports (stylesheets) name the file; scripts never serve it.
        if (found && query === "url") return { url: `${pathToFileURL(found).href}?url`, shortCircuit: true };
        if (found) return { url: pathToFileURL(found).href, shortCircuit: true };
      }
      return nextResolve(specifier, context);
    },
    load(url, context, nextLoad) {
      if (url.startsWith(CATALOGUE_URL)) {
        return { format: "module", source: catalogueModule(url.slice(CATALOGUE_URL.length)), shortCircuit: true };
      }
      if (url === CATALOGUE_ASSETS_URL) {
        return { format: "module", source: "export default { files: {}, chunks: {} };\n", shortCircuit: true };
      }
      if (url.endsWith("?url")) {
        const href = `/${path.relative(root, fileURLToPath(url.slice(0, -"?url".length)))}`;
        return { format: "module", source: `export default ${JSON.stringify(href)};\n`, shortCircuit: true };
      }
      return nextLoad(url, context);
    },
  });
}

export type LoadAppModule = <T>(file: string) => Promise<T>;

/** Runs `work` with a loader for app modules ("/app/…" paths). */
export async function withAppModules<R>(work: (load: LoadAppModule) => Promise<R>): Promise<R> {
  // Unset means production, as for the server (server.ts) and the configuration
  // (app/env.server.ts), so NOW, refused in production, does not pass for a
  // script alone (scripts/job.test.ts). Set before any app module (and React)
  // is imported, since they read it once.
  process.env.NODE_ENV ??= "production";
  registerAppHooks();
  return work(<T>(file: string) => import(pathToFileURL(path.join(root, file)).href) as Promise<T>);
}
