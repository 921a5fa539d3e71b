// npm run seed -- --listings N
// App modules load through Vite's SSR module loader (scripts/app-modules.ts).
import { withAppModules } from "./app-modules.ts";
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

try {
  await withAppModules(async (load) => {
    const { runSeedCommand } = await load<typeof import("../app/seed/cli.server.ts")>("/app/seed/cli.server.ts");
    await runSeedCommand(args.listings, (line) => console.log(line));
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
