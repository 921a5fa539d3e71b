import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { cataloguePlugin } from "./app/i18n/catalogue-plugin";

export default defineConfig({
  plugins: [cataloguePlugin()],
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: [
      "app/**/*.test.ts",
      "app/**/*.test.tsx",
      "scripts/**/*.test.ts",
      "server/**/*.test.ts",
      "tests/integration/**/*.test.ts",
    ],
    environment: "node",
    // Vitest's default is one worker per core but one; on a 2-core machine that runs the files one at
    // a time, though most of them wait on a database, Redis or a server more than they compute.
    // Two workers there ran the suites in 35-45% less time (ADR 073); files stay isolated.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker runs its files one after another in one module graph instead of importing the app
    // afresh for each: 30% less time for the tier (ADR 086). So a file must leave what it changes
    // as it found it: the clock (setClock(undefined)), process.env, spies (mockRestore).
    isolate: false,
    // The default reporter, then the failed tests' names once more as the last lines (CI shows the end).
    reporters: ["default", "./scripts/failed-tests-reporter.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
