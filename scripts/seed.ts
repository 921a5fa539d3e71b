// npm run seed -- --listings N
// App modules use extensionless imports and the `~` alias, which plain Node
// cannot resolve, so they are loaded through Vite's SSR module loader, the
// same way the development server loads them.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createServer } from "vite";
import { parseSeedArgs, SEED_USAGE } from "./seed-args.ts";

const args = parseSeedArgs(process.argv.slice(2));
if ("help" in args) {
  console.log(SEED_USAGE);
  process.exit(0);
}
if ("error" in args) {
  console.error(`${args.error}\n\n${SEED_USAGE}`);
  process.exit(2);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const vite = await createServer({
  root,
  configFile: false,
  appType: "custom",
  logLevel: "warn",
  resolve: { alias: { "~": path.join(root, "app") } },
  server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  optimizeDeps: { noDiscovery: true, include: [] },
});
try {
  const { runSeedCommand } = (await vite.ssrLoadModule("/app/seed/cli.server.ts")) as typeof import("../app/seed/cli.server.ts");
  await runSeedCommand(args.listings, (line) => console.log(line));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await vite.close();
}
