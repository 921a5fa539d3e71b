// Whether the production build is newer than every file it is made from, so the
// benchmark and the soak can use it as it is instead of building again (about a
// minute on a slow machine, and `npm test` builds just before its bench tier).
// `npm run build` ends by writing the stamp (scripts/precompress.ts, its last
// step); `react-router build` empties the build folder first, so a build that
// stopped half-way has none.
import fs from "node:fs";
import path from "node:path";

export const BUILD_STAMP = ".complete";

/** What the build is made from, relative to the repository: folders are read whole (tests too, to be safe). */
export const BUILD_INPUTS = [
  "app",
  "server",
  "public",
  "scripts/pwa",
  "server.ts",
  "scripts/pwa.ts",
  "scripts/precompress.ts",
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
];

export function markBuildComplete(buildDir: string): void {
  fs.writeFileSync(path.join(buildDir, BUILD_STAMP), `${new Date().toISOString()}\n`);
}

/** The latest modification time (ms) of any file under the inputs; missing inputs are skipped. */
export function newestInput(root: string, inputs: readonly string[] = BUILD_INPUTS): number {
  let newest = 0;
  for (const input of inputs) {
    const full = path.join(root, input);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(full);
    } catch {
      continue;
    }
    if (!stat.isDirectory()) {
      newest = Math.max(newest, stat.mtimeMs);
      continue;
    }
    for (const entry of fs.readdirSync(full, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

/** True when the build in `buildDir` finished after the last change to any of its inputs. */
export function buildIsCurrent(root: string, buildDir: string, inputs: readonly string[] = BUILD_INPUTS): boolean {
  let stamped: number;
  try {
    stamped = fs.statSync(path.join(buildDir, BUILD_STAMP)).mtimeMs;
  } catch {
    return false;
  }
  return newestInput(root, inputs) < stamped;
}
