import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { createDatabase, type DB } from "../../app/db/db.server";
import { insertListing } from "../../app/models/listing.server";
import { listingInput } from "../factories";
import { insertOwner, insertSession } from "../owner-session";
import { ports } from "../ports";
import { startServer } from "./spawn-server";

// ADR 089: a tap on 'Call Now' counts once per visitor (with JavaScript by a beacon,
// without it by the link's ping), and its owner sees it in My Ads' chart the next day.
// Two days need two clocks: a server of its own on one data folder, started at NOW
// on the first day, then again on the next (house rule 11).

const port = ports.insights;
const base = `http://127.0.0.1:${port}`;
// 10:00 in Colombo on 29 Nov 2026, then 10:00 the next day.
const DAY_ONE = "2026-11-29T04:30:00.000Z";
const DAY_TWO = "2026-11-30T04:30:00.000Z";

function serverAt(dataDir: string, now: string) {
  return startServer(dataDir, "never", {
    port,
    env: { NODE_ENV: "test", NOW: now, SITE_URL: base, RATE_LIMITS: "viewVisitor=1000" },
  });
}

async function withDb<T>(dataDir: string, run: (db: DB) => Promise<T>): Promise<T> {
  const { db, destroy } = createDatabase({ dataDir, poolSize: 1 });
  try {
    return await run(db);
  } finally {
    await destroy();
  }
}

const callsOf = (dataDir: string, listingId: number) =>
  withDb(dataDir, async (db) => {
    const row = await db
      .selectFrom("listing_daily_counts")
      .select("calls")
      .where("listingId", "=", listingId)
      .where("day", "=", "2026-11-29")
      .executeTakeFirst();
    return row?.calls ?? 0;
  });

/** A student's browser on the listing page, tapping the side panel's 'Call Now' (a tel: link). */
async function tapCallNow(browser: Browser, slug: string, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/listing/${slug}`);
  const call = page.locator("aside").getByRole("link", { name: "Call Now" });
  // The link goes straight to the phone, whatever counts the tap.
  await expect(call).toHaveAttribute("href", /^tel:/);
  const counted = page.waitForRequest(
    (r) => r.url().endsWith(`/listing/${slug}/contact/call`) && r.method() === "POST",
  );
  await call.click();
  await counted;
  return { context, page, call };
}

test("a tap on Call Now counts once per visitor and shows in My Ads the next day", async ({ browser }) => {
  test.slow();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-insights-"));
  let run = serverAt(dataDir, DAY_ONE);
  try {
    await run.started;
    const { owner, listing } = await withDb(dataDir, async (db) => {
      const owner = await insertOwner(db);
      const input = listingInput({ title: "Insight room near Moratuwa", contactPhone: owner.phone, whatsapp: true });
      return { owner, listing: await insertListing(db, owner, input, new Date(DAY_ONE)) };
    });

    // With JavaScript: the beacon. Tapping again, and again after a reload, counts nothing more.
    const student = await tapCallNow(browser, listing.slug, true);
    await expect.poll(() => callsOf(dataDir, listing.id)).toBe(1);
    await student.page.reload();
    const again = student.page.waitForRequest((r) => r.url().endsWith("/contact/call"));
    await student.call.click();
    await again;
    await student.context.close();
    // Without JavaScript: Chromium sends the link's ping itself, for a tel: link too.
    const noScript = await tapCallNow(browser, listing.slug, false);
    await noScript.context.close();
    await expect.poll(() => callsOf(dataDir, listing.id)).toBe(2);

    run.stop();
    await run.exited;
    run = serverAt(dataDir, DAY_TWO);
    await run.started;

    // The next day, on a phone: the owner's chart has yesterday's two calls.
    const secret = (
      JSON.parse(fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8")) as { sessionSecret: string }
    ).sessionSecret;
    const cookie = await withDb(dataDir, (db) => insertSession(db, owner.id, secret));
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    await context.addCookies([{ name: cookie.name, value: cookie.value, url: base, httpOnly: true, sameSite: "Lax" }]);
    const page: Page = await context.newPage();
    await page.goto(`${base}/dashboard`);
    const chart = page.locator(`[data-testid="ad-insights"][data-insights-for="${listing.id}"]`);
    await expect(chart).toContainText("Last 30 days: 1 Nov 2026 to 30 Nov 2026");
    await expect(chart.locator('[data-series="calls"]')).toContainText("Calls: 2");
    await expect(chart.locator('[data-series="calls"] rect')).toHaveCount(1);
    await chart.getByText("Figures per day", { exact: true }).click();
    const rows = chart.getByRole("row");
    await expect(rows.filter({ hasText: "30 Nov" })).toHaveText(/^30 Nov\s*\d+\s*0\s*0\s*0$/);
    await expect(rows.filter({ hasText: "29 Nov" })).toHaveText(/^29 Nov\s*\d+\s*0\s*2\s*0$/);
    // Readable on a 360 px phone: the table fits its card, and nothing is wider than the screen.
    expect(await chart.locator("details > div").evaluate((box) => box.scrollWidth <= box.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await context.close();
  } finally {
    run.stop();
    await run.exited.catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
