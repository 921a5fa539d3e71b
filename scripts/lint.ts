/**
 * `npm run lint`: Biome's format, import-order and lint checks over the tree, failing on any
 * finding (Biome itself exits 0 on warnings and infos), then the layer rules.
 */
import { spawnSync } from "node:child_process";

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  const output = result.stdout + result.stderr;
  // "Found 3 infos." is Biome's summary of findings below warning level.
  if (result.status !== 0 || /Found \d+ (error|warning|info)/.test(output)) {
    console.error(
      `\nlint: ${[command, ...args].join(" ")} found problems (npm run format fixes formatting and import order; the layers are in .dependency-cruiser.mjs)`,
    );
    process.exit(result.status || 1);
  }
  return output;
}

run("npx", ["biome", "check", "--error-on-warnings", "--max-diagnostics=none", "."]);
run("npm", ["run", "--silent", "lint:layers"]);
