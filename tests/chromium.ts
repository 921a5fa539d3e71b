import { devices } from "@playwright/test";

/**
 * Debian's Chromium as both Playwright configs launch it (playwright.config.ts for the browser
 * tier, playwright.system.config.ts for the system tier); Playwright never downloads a browser here.
 */
export const chromium = {
  ...devices["Desktop Chrome"],
  channel: undefined,
  // A failed test leaves its trace in its run's output folder (open it with `npx playwright show-trace`);
  // passing tests' traces are thrown away.
  trace: "retain-on-failure" as const,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
