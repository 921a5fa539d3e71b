import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { baseConfig, chromium } from "./tests/playwright-base";
import { ports } from "./tests/ports";

// Browser tests run against the production build with a fresh data folder
// (demo data is seeded on first start), in Debian's Chromium (tests/playwright-base.ts). The specs that
// start servers of their own are the system tier: playwright.system.config.ts (ADR 073).
const port = ports.sqliteServer;
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "bodima-e2e-"));
// With TEST_DATABASE_URL set (CI does), a second server runs on a fresh
// PostgreSQL database and the "postgres" project repeats the core specs on it.
const postgresPort = ports.postgresServer;
const withPostgres = !!process.env.TEST_DATABASE_URL;
// A real SMTP server (tests/smtp-sink.ts) receives the sqlite server's mail;
// tests/e2e/mail.ts reads what it wrote to SMTP_SINK_DIR.
const smtpSinkPort = ports.smtpSink;
process.env.SMTP_SINK_DIR ??= `${process.env.E2E_DATA_DIR}-mail`;
// A real HTTP server speaking Notify.lk's protocol (tests/sms-gateway.ts) stands in for Notify.lk:
// the sqlite server's SMS codes (ADR 075) go to it through the real adapter, and
// tests/e2e/sms.ts reads what it wrote to SMS_GATEWAY_DIR.
const smsGatewayPort = ports.smsGateway;
process.env.SMS_GATEWAY_DIR ??= `${process.env.E2E_DATA_DIR}-sms`;

// No NODE_ENV: the server runs exactly as `npm start` would (tests/e2e/production-mode.spec.ts).
const serverEnv = (serverPort: number) => ({
  PORT: String(serverPort),
  HOST: "127.0.0.1",
  SITE_URL: `http://127.0.0.1:${serverPort}`,
  LOG_LEVEL: "warn",
  // Every browser test comes from 127.0.0.1, so per-IP limits are raised here
  // (viewVisitor too: first visits without a cookie count per IP);
  // per-account limits stay as in production. Integration tests cover each limit.
  RATE_LIMITS:
    "signupIp=1000,loginIp=1000,contactIp=1000,reportIp=1000,viewVisitor=1000,alertNetwork=1000,smsCodeNetwork=1000",
  // As behind one reverse proxy: a test can then come from another network by
  // sending X-Forwarded-For (reports need independent networks, ADR 017);
  // requests without the header are still counted by their socket address.
  TRUST_PROXY: "1",
  ...(process.env.BUILD_DIR ? { BUILD_DIR: process.env.BUILD_DIR } : {}),
});

export default defineConfig({
  ...baseConfig,
  testDir: "tests/e2e",
  // Three tests at a time on two cores: with two, a quarter of the cores sat idle while each test waited
  // on the browser, the server or itself; the third filled half of that, 11% less time (ADR 114).
  workers: 3,
  // Its own folder, so the system tier's run (playwright.system.config.ts) does not clear it.
  outputDir: "test-results/browser",
  use: {
    ...chromium,
    // A failed test's trace here keeps its steps, call logs, console and error, and Playwright writes the
    // page's accessibility tree beside it (error-context.md). DOM snapshots, network and screenshots, a
    // tenth of the tier's time, are recorded with BROWSER_TRACES=full, as `npm test` runs the failed
    // tests once more (ADR 112).
    trace:
      process.env.BROWSER_TRACES === "full"
        ? "retain-on-failure"
        : { mode: "retain-on-failure", screenshots: false, snapshots: false },
    baseURL: `http://127.0.0.1:${port}`,
  },
  projects: [
    { name: "sqlite" },
    ...(withPostgres
      ? [
          {
            name: "postgres",
            testMatch: [
              "smoke.spec.ts",
              "browse.spec.ts",
              "browse-without-js.spec.ts",
              "api.spec.ts",
              "listing.spec.ts",
              "page-cache.spec.ts",
            ],
            // What the database behind the page cannot change (layout, keyboard, accessibility, a map
            // that fails to load) is tagged @ui-only and runs once, on SQLite (ADR 081); so is a test with
            // JavaScript tagged @js-twin, whose server-side search a test without JavaScript runs here (ADR 098).
            grepInvert: /@ui-only|@js-twin/,
            use: { baseURL: `http://127.0.0.1:${postgresPort}` },
          },
        ]
      : []),
  ],
  webServer: [
    {
      command: "node --disable-warning=ExperimentalWarning tests/smtp-sink.ts",
      port: smtpSinkPort,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "ignore",
      stderr: "pipe",
      env: { SMTP_SINK_PORT: String(smtpSinkPort), SMTP_SINK_DIR: process.env.SMTP_SINK_DIR },
    },
    {
      command: "node --disable-warning=ExperimentalWarning tests/sms-gateway.ts",
      port: smsGatewayPort,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "ignore",
      stderr: "pipe",
      env: { SMS_GATEWAY_PORT: String(smsGatewayPort), SMS_GATEWAY_DIR: process.env.SMS_GATEWAY_DIR },
    },
    {
      command: "node --disable-warning=ExperimentalWarning server.ts",
      url: `http://127.0.0.1:${port}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        ...serverEnv(port),
        DATA_DIR: process.env.E2E_DATA_DIR,
        SMTP_URL: `smtp://127.0.0.1:${smtpSinkPort}`,
        // The stand-in for Notify.lk above, through the real notifylk adapter.
        SMS_URL: `notifylk://1234:test-key@Bodima?endpoint=http://127.0.0.1:${smsGatewayPort}/api/v1/send`,
      },
    },
    ...(withPostgres
      ? [
          {
            command: "node --disable-warning=ExperimentalWarning tests/e2e-postgres-server.ts",
            url: `http://127.0.0.1:${postgresPort}/`,
            reuseExistingServer: false,
            timeout: 120_000,
            stdout: "ignore" as const,
            stderr: "pipe" as const,
            env: {
              ...serverEnv(postgresPort),
              DATA_DIR: `${process.env.E2E_DATA_DIR}-pg`,
              TEST_DATABASE_URL: process.env.TEST_DATABASE_URL!,
              // Sign-up's confirmation email (ADR 066) must reach the tests on this server too.
              SMTP_URL: `smtp://127.0.0.1:${smtpSinkPort}`,
            },
          },
        ]
      : []),
  ],
});
