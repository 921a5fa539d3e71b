import { randomBytes } from "node:crypto";
import { afterEach, expect, it } from "vitest";
import { ListingInsightsSchema } from "../../app/api/api-schemas";
import { openApiDocument } from "../../app/api/openapi";
import { SESSION_COOKIE_NAME } from "../../app/auth/session-cookie";
import type { DB } from "../../app/db/db.server";
import { setClock } from "../../app/lib/clock";
import { createMemoryStore, createRateLimiter } from "../../app/limits/rate-limit.server";
import { insertListing } from "../../app/models/listing.server";
import { dailyCountsOf } from "../../app/models/listing-daily-counts.server";
import { countListingTap } from "../../app/models/listing-taps.server";
import { recordListingViews } from "../../app/models/view-tracking.server";
import { loader as insightsLoader } from "../../app/routes/api.my.listings.$id.insights";
import { action as tapAction } from "../../app/routes/listing.contact.$kind";
import { action as shortlistAction } from "../../app/routes/shortlist";
import { signVisitorId } from "../../app/security/visitor-id.server";
import { listingInput } from "../factories";
import { signedInAccount } from "../owner-fixtures";
import { TEST_SITE, testContext } from "../request-context";
import { describeEachDatabase } from "../test-db";

// ADR 089: what an ad did per day, counted without keeping who did it.

type Limiter = ReturnType<typeof createRateLimiter>;
const SECRET = "y".repeat(64); // testContext's sessionSecret, which signs visitor ids
const BROWSER_UA =
  "Mozilla/5.0 (Linux; Android 13; SM-A145F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";
const newBrowser = () => `bodima_vid=${signVisitorId(SECRET, randomBytes(16).toString("hex"))}`;

afterEach(() => setClock(undefined));

async function ownedListing(db: DB, tag: string) {
  const { owner, cookie } = await signedInAccount(db, tag);
  const listing = await insertListing(db, owner, listingInput({ title: `Room (${tag})`, contactPhone: owner.phone }));
  return { ...listing, ownerCookie: cookie };
}

/** A tap as a browser's ping or beacon sends it: POST with no body. */
async function tap(
  db: DB,
  slug: string,
  kind: string,
  options: { cookie?: string; clientIp?: string; limiter: Limiter; headers?: Record<string, string> },
) {
  const headers: Record<string, string> = { "user-agent": BROWSER_UA, origin: TEST_SITE, ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  const request = new Request(`${TEST_SITE}/listing/${slug}/contact/${kind}`, { method: "POST", headers });
  const context = testContext({ db, limiter: options.limiter, clientIp: options.clientIp ?? "198.51.100.7" });
  return (await tapAction({ request, params: { slug, kind }, context } as never)) as Response;
}

async function day(db: DB, listingId: number, date: string) {
  const days = (await dailyCountsOf(db, [listingId], { now: new Date(`${date}T12:00:00+05:30`) })).get(listingId)!;
  const { day: _, ...counts } = days[days.length - 1];
  return counts;
}

describeEachDatabase("an ad's daily figures", (ctx) => {
  it("taps, saves and views roll into the day they happened in Colombo", async () => {
    const { db } = ctx();
    const { id } = await ownedListing(db, "days");
    const limiter = createRateLimiter(createMemoryStore());
    const who = { visitorKey: "visitor-a", clientIp: "198.51.100.1" };
    // 23:30 on 29 Nov in Colombo, then 00:15 on 30 Nov: both on 29 Nov in UTC.
    const late = new Date("2026-11-29T18:00:00.000Z");
    const early = new Date("2026-11-29T18:45:00.000Z");
    expect(await countListingTap(db, limiter, { listingId: id, kind: "call" }, who, late)).toBe(true);
    expect(await countListingTap(db, limiter, { listingId: id, kind: "call" }, who, early)).toBe(true);
    expect(await countListingTap(db, limiter, { listingId: id, kind: "save" }, who, early)).toBe(true);
    expect(await countListingTap(db, limiter, { listingId: id, kind: "viber" }, who, early)).toBe(true);
    await recordListingViews(db, [
      { listingId: id, sessionKey: "s1", visitorKey: "v1", viewedAt: late.toISOString() },
      { listingId: id, sessionKey: "s2", visitorKey: "v2", viewedAt: early.toISOString() },
      { listingId: id, sessionKey: "s3", visitorKey: "v2", viewedAt: early.toISOString() },
      // The same session again: one view, as the running total counts it.
      { listingId: id, sessionKey: "s3", visitorKey: "v2", viewedAt: early.toISOString() },
    ]);
    expect(await day(db, id, "2026-11-29")).toEqual({ views: 1, saves: 0, calls: 1, whatsapp: 0, viber: 0 });
    expect(await day(db, id, "2026-11-30")).toEqual({ views: 2, saves: 1, calls: 1, whatsapp: 0, viber: 1 });
  });

  it("counts a visitor's tap once per kind and day, however often it is sent", async () => {
    const { db } = ctx();
    const { id, slug } = await ownedListing(db, "once");
    const limiter = createRateLimiter(createMemoryStore());
    const browser = newBrowser();
    setClock("2026-11-29T06:00:00.000Z");
    // The ping and the beacon of one click, and a second click.
    const answers = await Promise.all([1, 2, 3].map(() => tap(db, slug, "call", { cookie: browser, limiter })));
    expect(answers.map((a) => a.status)).toEqual([204, 204, 204]);
    await tap(db, slug, "whatsapp", { cookie: browser, limiter });
    await tap(db, slug, "call", { cookie: newBrowser(), limiter, clientIp: "198.51.100.8" });
    expect(await day(db, id, "2026-11-29")).toMatchObject({ calls: 2, whatsapp: 1 });
    // The next day in Colombo the same visitor counts again.
    setClock("2026-11-29T19:00:00.000Z");
    await tap(db, slug, "call", { cookie: browser, limiter });
    expect(await day(db, id, "2026-11-30")).toMatchObject({ calls: 1 });
    expect(await day(db, id, "2026-11-29")).toMatchObject({ calls: 2 });
  });

  it("a stranger with two networks and no cookies adds no more than each network's limit", async () => {
    const { db } = ctx();
    const { id, slug } = await ownedListing(db, "stranger");
    const limiter = createRateLimiter(createMemoryStore());
    setClock("2026-11-29T06:00:00.000Z");
    // From one address of each network, again and again: once per network.
    for (const clientIp of ["198.51.100.50", "203.0.113.50"])
      for (let i = 0; i < 10; i++) await tap(db, slug, "call", { limiter, clientIp });
    expect(await day(db, id, "2026-11-29")).toMatchObject({ calls: 2 });
    // From 30 addresses of each network, with made-up or no cookies: 10 a network (tapNetwork).
    for (const network of ["198.51.100", "203.0.113"])
      for (let host = 1; host <= 30; host++) {
        const clientIp = `${network}.${host + 100}`;
        await tap(db, slug, "call", { limiter, clientIp });
        await tap(db, slug, "call", { limiter, clientIp, cookie: `bodima_vid=${randomBytes(16).toString("hex")}` });
      }
    expect(await day(db, id, "2026-11-29")).toMatchObject({ calls: 20 });
    // Another site's page, a crawler and a prefetch count nothing either.
    const fresh = { limiter, clientIp: "192.0.2.9", cookie: newBrowser() };
    await tap(db, slug, "viber", { ...fresh, headers: { origin: "https://evil.example" } });
    await tap(db, slug, "viber", {
      ...fresh,
      headers: { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" },
    });
    await tap(db, slug, "viber", { ...fresh, headers: { "sec-purpose": "prefetch" } });
    expect(await day(db, id, "2026-11-29")).toMatchObject({ viber: 0 });
  });

  it("answers 404 for an unknown listing or kind, and 405 to a GET", async () => {
    const { db } = ctx();
    const { slug } = await ownedListing(db, "kinds");
    const limiter = createRateLimiter(createMemoryStore());
    expect((await tap(db, "no-such-listing-999999", "call", { limiter })).status).toBe(404);
    expect((await tap(db, slug, "email", { limiter })).status).toBe(404);
    const { loader } = await import("../../app/routes/listing.contact.$kind");
    expect(loader().status).toBe(405);
  });

  it("counts a save once per browser and day, even saved, removed and saved again", async () => {
    const { db } = ctx();
    const { id } = await ownedListing(db, "saves");
    const limiter = createRateLimiter(createMemoryStore());
    setClock("2026-11-29T06:00:00.000Z");
    const save = (cookie: string, intent = "save") => {
      const request = new Request(`${TEST_SITE}/shortlist`, {
        method: "POST",
        headers: { Origin: TEST_SITE, Cookie: cookie },
        body: new URLSearchParams({ enhanced: "1", intent, listing: String(id) }),
      });
      return shortlistAction({ request, params: {}, context: testContext({ db, limiter }) } as never);
    };
    const browser = newBrowser();
    await save(browser);
    await save(browser, "remove");
    await save(browser);
    await save(newBrowser());
    expect(await day(db, id, "2026-11-29")).toMatchObject({ saves: 2 });
  });

  it("shows an ad's figures to its owner only: anyone else hears it does not exist", async () => {
    const { db } = ctx();
    const { id, ownerCookie } = await ownedListing(db, "api-owner");
    const { cookie: otherOwner } = await signedInAccount(db, "api-other");
    setClock("2026-11-29T06:00:00.000Z");
    await countListingTap(
      db,
      createRateLimiter(createMemoryStore()),
      { listingId: id, kind: "whatsapp" },
      {
        visitorKey: null,
        clientIp: "198.51.100.3",
      },
    );
    const get = async (cookie: string | null, listingId = String(id)) => {
      const request = new Request(`${TEST_SITE}/api/my/listings/${listingId}/insights`, {
        headers: cookie ? { cookie } : {},
      });
      const response = (await insightsLoader({
        request,
        params: { id: listingId },
        context: testContext({ db }),
      } as never)) as Response;
      return {
        status: response.status,
        body: await response.json(),
        cacheControl: response.headers.get("cache-control"),
      };
    };
    const own = await get(ownerCookie);
    expect(own.status).toBe(200);
    expect(own.cacheControl).toBe("no-store");
    const insights = ListingInsightsSchema.parse(own.body);
    expect(insights.days).toHaveLength(30);
    expect(insights.days[29]).toEqual({ day: "2026-11-29", views: 0, saves: 0, calls: 0, whatsapp: 1, viber: 0 });
    expect(insights.totals).toEqual({ views: 0, saves: 0, calls: 0, whatsapp: 1, viber: 0 });

    // The document names the cookie the API reads.
    expect(openApiDocument(TEST_SITE).components.securitySchemes.session.name).toBe(SESSION_COOKIE_NAME);

    const missing = await get(ownerCookie, "999999");
    expect(missing.status).toBe(404);
    for (const cookie of [null, otherOwner]) expect(await get(cookie)).toEqual(missing);
    // A suspended owner's session reads nothing, not even their own ad's figures.
    const ownerId = (await db.selectFrom("listings").select("userId").where("id", "=", id).executeTakeFirstOrThrow())
      .userId;
    await db.updateTable("users").set({ status: "suspended" }).where("id", "=", ownerId).execute();
    expect(await get(ownerCookie)).toEqual(missing);
  });
});
