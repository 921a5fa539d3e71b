// App modules use extensionless imports and the `~` alias, which plain Node
// cannot resolve, so command-line scripts load them through Vite's SSR module
// loader, the same way the development server loads them.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createServer } from "vite";
import { cataloguePlugin } from "../app/i18n/catalogue-plugin.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export type LoadAppModule = <T>(file: string) => Promise<T>;

/** Runs `work` with a loader for app modules ("/app/…" paths), then closes the loader. */
export async function withAppModules<R>(work: (load: LoadAppModule) => Promise<R>): Promise<R> {
  // Unset means production, as for the server (server.ts) and the configuration
  // (app/env.server.ts): Vite would otherwise set "development", and NOW, refused
  // in production, would pass for a script alone (scripts/job.test.ts).
  process.env.NODE_ENV ??= "production";
  const vite = await createServer({
    root,
    configFile: false,
    appType: "custom",
    logLevel: "warn",
    // App modules may import their message catalogues ("virtual:catalogue/…").
    plugins: [cataloguePlugin()],
    resolve: { alias: { "~": path.join(root, "app") } },
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    return await work(<T>(file: string) => vite.ssrLoadModule(file) as Promise<T>);
  } finally {
    await vite.close();
  }
}
