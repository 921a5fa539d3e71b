import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { field } from "../e2e/owners";
import { startServer } from "../e2e/spawn-server";
import { ports } from "../ports";
import { startTestRedis, type TestRedis } from "../redis-server";

// ADR 041: `npm start` with REDIS_URL counts rate limits in Redis. When
// Redis stops, logging in answers a clear "briefly unavailable" message (503, not
// a 500, with and without JavaScript), public pages keep working and /readyz says
// what is down; when Redis is back the site recovers by itself. A private Redis
// server is started, stopped and started again by this file.

const port = ports.redis;
const base = `http://127.0.0.1:${port}`;
const UNAVAILABLE =
  "This can't be done right now: part of the site is briefly unavailable. Please try again in a minute.";

test.describe.configure({ mode: "serial" });

let dataDir: string;
let redis: TestRedis;
let run: ReturnType<typeof startServer>;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-redis-"));
  redis = await startTestRedis();
  run = startServer(dataDir, "auto", { port, env: { WEB_CONCURRENCY: "2", SITE_URL: base, REDIS_URL: redis.url } });
  await run.started;
});

test.afterAll(async () => {
  run.stop();
  await run.exited;
  await redis.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function tryLogin(page: Page, password: string) {
  await page.goto(`${base}/login`);
  await page.getByLabel("Email Address").fill("owner1@demo.bodima.lk");
  await field(page, "Password").fill(password);
  const answer = page.waitForResponse((response) => response.request().method() === "POST");
  await page.getByRole("button", { name: "Log In" }).click();
  return answer;
}

test("while Redis is down, login says it is briefly unavailable (503), browsing goes on, /readyz names Redis; then it recovers", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const plain = await browser.newContext({ javaScriptEnabled: false });
  const page = await plain.newPage();
  expect((await (await fetch(`${base}/readyz`)).text()).trim()).toBe("ready");
  expect((await tryLogin(page, "Wrong-pass1")).status()).toBe(401);

  await redis.stop();
  const refused = await tryLogin(page, "Bodima-demo-2026");
  expect(refused.status()).toBe(503);
  expect(refused.headers()["retry-after"]).toBe("30");
  await expect(page.getByRole("main").locator('[role="alert"]').first()).toContainText(UNAVAILABLE);
  expect((await plain.cookies()).some((c) => c.name === "bodima.session_token")).toBe(false);
  // Everything that needs no limit keeps working.
  for (const pathname of ["/", "/browse", "/about", "/api/listings?limit=1"]) {
    expect((await fetch(`${base}${pathname}`)).status, pathname).toBe(200);
  }
  const notReady = await fetch(`${base}/readyz`);
  expect(notReady.status).toBe(503);
  expect(await notReady.text()).toContain("redis down");

  await redis.start();
  await expect.poll(async () => (await fetch(`${base}/readyz`)).status, { timeout: 15_000 }).toBe(200);
  const back = await tryLogin(page, "Bodima-demo-2026");
  expect(back.status()).toBeLessThan(400);
  await expect(page).toHaveURL(/\/dashboard/);
  await plain.close();
});
