import { defineConfig } from "@playwright/test";
import { baseConfig, chromium } from "./tests/playwright-base";

// The system tier (ADR 073): specs that start servers of their own (`npm start` with two workers, two
// servers behind nginx, a Redis stopped and started again, kill -9 mid-write) and barely use a browser.
// They need the production build (`npm run build`) but not the browser tier's server: nothing is
// started here. Each server's port is its own (tests/ports.ts).
export default defineConfig({
  // Each spec but crash.spec.ts runs its tests in order (they share one server); crash.spec.ts's
  // two databases run at once, on two workers.
  ...baseConfig,
  testDir: "tests/system",
  outputDir: "test-results/system",
  use: chromium,
  projects: [{ name: "system" }],
});
