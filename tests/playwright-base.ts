import { devices, type PlaywrightTestConfig } from "@playwright/test";

/** What both Playwright configs share: playwright.config.ts (browser tier), playwright.system.config.ts (system tier). */
export const baseConfig = {
  // Each file's tests run in parallel unless the file says `mode: "serial"`.
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
} satisfies PlaywrightTestConfig;

/**
 * Debian's Chromium headless shell (package chromium-headless-shell), as both configs launch it;
 * Playwright never downloads a browser here. The shell is the same Blink without the full browser's
 * user interface, Playwright's own choice for headless runs: the browser tier needed about half the CPU
 * it took with the full `/usr/bin/chromium` in headless mode (ADR 085).
 */
export const chromium = {
  ...devices["Desktop Chrome"],
  channel: undefined,
  // A failed test leaves its trace in its run's output folder (open it with `npx playwright show-trace`);
  // passing tests' traces are thrown away. The trace keeps each step's DOM snapshot, network and console
  // but no screencast: recording screenshots for every test cost about 9% of the browser tier's CPU
  // (ADR 073), and the snapshots show the page as it was.
  trace: { mode: "retain-on-failure" as const, screenshots: false },
  // Each test is a first visit: no service worker (ADR 088) answers for the server. The spec of the
  // installable app (tests/e2e/offline.spec.ts) allows it.
  serviceWorkers: "block" as const,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/lib/chromium/chromium-headless-shell",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  },
};
