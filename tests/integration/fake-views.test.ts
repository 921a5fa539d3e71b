import { randomBytes } from "node:crypto";
import pino from "pino";
import { afterEach, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { createMemoryStore, createRateLimiter, DEFAULT_LIMITS } from "../../app/limits/rate-limit.server";
import {
  queueListingView,
  startViewCounter,
  VIEW_SESSION_COOKIE,
  VIEW_VISITOR_COOKIE,
  type ViewCounter,
  viewCountsOf,
} from "../../app/models/view-tracking.server";
import { action as updateViewCount } from "../../app/routes/api.update-view-count";
import { signVisitorId } from "../../app/security/visitor-id.server";
import { insertOwnedListing } from "../factories";
import { TEST_SITE, testContext } from "../request-context";
import { alterEnd } from "../tamper";
import { describeEachDatabase } from "../test-db";

// ADR 017: a script sending made-up visitor cookies must not add views.
// testContext signs with sessionSecret "y" x 64, as the server signs with its secret.
const SECRET = "y".repeat(64);
const BROWSER_UA =
  "Mozilla/5.0 (Linux; Android 13; SM-A145F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";
const log = pino({ level: "silent" });
const hex = () => randomBytes(16).toString("hex");

let counter: ViewCounter | undefined;
afterEach(async () => {
  await counter?.stop();
  counter = undefined;
});

const listing = (db: DB) => insertOwnedListing(db, "fake-views");

async function counts(db: DB, id: number) {
  const row = await viewCountsOf(db, id);
  const rows = await db.selectFrom("listing_views").select("sessionKey").where("listingId", "=", id).execute();
  return { ...row, rows: rows.length };
}

/** POST /updateViewCount as a script would send it. */
function ping(
  db: DB,
  adId: number,
  cookies: Record<string, string>,
  options: { clientIp: string; limiter: ReturnType<typeof createRateLimiter> },
) {
  const cookie = Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");
  const request = new Request(`${TEST_SITE}/updateViewCount`, {
    method: "POST",
    headers: { "user-agent": BROWSER_UA, "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ adId }),
  });
  return updateViewCount({
    request,
    params: {},
    context: testContext({ db, limiter: options.limiter, clientIp: options.clientIp }),
  } as never) as Promise<Response>;
}

/** A listing page request as server/pages.ts sees it. */
function pageRequest(cookie: string) {
  return {
    method: "GET",
    headers: {
      get: (name: string) => (name === "cookie" ? cookie || null : name === "user-agent" ? BROWSER_UA : null),
    },
  };
}

describeEachDatabase("fake views", (ctx) => {
  it("random unsigned bodima_vid cookies add no view and no listing_views row (JSON endpoint)", async () => {
    const { db } = ctx();
    const id = await listing(db);
    const limiter = createRateLimiter(createMemoryStore());
    for (let i = 0; i < 20; i++) {
      const response = await ping(
        db,
        id,
        { [VIEW_SESSION_COOKIE]: hex(), [VIEW_VISITOR_COOKIE]: hex() },
        { clientIp: "198.51.100.20", limiter },
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ counted: false, totalViews: 0 });
      // The answer gives the caller a real (signed) id instead.
      const issued = response.headers.getSetCookie().find((c) => c.startsWith(`${VIEW_VISITOR_COOKIE}=`));
      expect(issued).toMatch(
        /^bodima_vid=[a-f0-9]{32}\.[A-Za-z0-9_-]{43}; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Lax$/,
      );
    }
    expect(await counts(db, id)).toEqual({ views: 0, uniqueViews: 0, rows: 0 });
  });

  it("a signed id with a tampered signature, or another secret's, adds no view", async () => {
    const { db } = ctx();
    const id = await listing(db);
    const limiter = createRateLimiter(createMemoryStore());
    const good = signVisitorId(SECRET, hex());
    const flipped = alterEnd(good, 1);
    const tamperedId = `${hex()}${good.slice(32)}`;
    const otherSecret = signVisitorId("z".repeat(64), hex());
    for (const visitor of [flipped, tamperedId, otherSecret, `${good}x`, good.slice(0, 32)]) {
      const response = await ping(
        db,
        id,
        { [VIEW_SESSION_COOKIE]: hex(), [VIEW_VISITOR_COOKIE]: visitor },
        { clientIp: "198.51.100.21", limiter },
      );
      expect(await response.json(), visitor).toMatchObject({ counted: false });
    }
    expect(await counts(db, id)).toEqual({ views: 0, uniqueViews: 0, rows: 0 });
    // The genuine one counts.
    const real = await ping(
      db,
      id,
      { [VIEW_SESSION_COOKIE]: hex(), [VIEW_VISITOR_COOKIE]: good },
      { clientIp: "198.51.100.21", limiter },
    );
    expect(await real.json()).toMatchObject({ counted: true, totalViews: 1, uniqueViews: 1 });
  });

  it("forged cookies add nothing on the listing page either (cached or not, through the buffer)", async () => {
    const { db } = ctx();
    const id = await listing(db);
    counter = startViewCounter({ db, log, intervalMs: 60_000 });
    const options = {
      visitorSalt: "salt",
      visitorSecret: SECRET,
      secure: false,
      limit: { limiter: createRateLimiter(createMemoryStore()), clientIp: "198.51.100.22" },
      counter,
    };
    for (let i = 0; i < 10; i++) {
      const queued = queueListingView(
        pageRequest(`${VIEW_SESSION_COOKIE}=${hex()}; ${VIEW_VISITOR_COOKIE}=${hex()}`),
        id,
        options,
      );
      await queued?.queued;
    }
    await counter.flush();
    expect(await counts(db, id)).toEqual({ views: 0, uniqueViews: 0, rows: 0 });
  });

  it("ids a script collected (each signed) add at most the per-origin allowance to one listing", async () => {
    const { db } = ctx();
    const id = await listing(db);
    const other = await listing(db);
    const limiter = createRateLimiter(createMemoryStore());
    const max = DEFAULT_LIMITS.viewVisitor.max;
    // Many distinct signed ids, from addresses of one /24.
    for (let i = 0; i < max + 5; i++) {
      await ping(
        db,
        id,
        { [VIEW_SESSION_COOKIE]: hex(), [VIEW_VISITOR_COOKIE]: signVisitorId(SECRET, hex()) },
        { clientIp: `198.51.100.${i % 200}`, limiter },
      );
    }
    expect(await counts(db, id)).toMatchObject({ views: max, rows: max });
    // Another network still counts on that listing, and the same network on another listing.
    const elsewhere = await ping(
      db,
      id,
      { [VIEW_SESSION_COOKIE]: hex(), [VIEW_VISITOR_COOKIE]: signVisitorId(SECRET, hex()) },
      { clientIp: "203.0.113.5", limiter },
    );
    expect(await elsewhere.json()).toMatchObject({ counted: true, totalViews: max + 1 });
    const otherListing = await ping(
      db,
      other,
      { [VIEW_SESSION_COOKIE]: hex(), [VIEW_VISITOR_COOKIE]: signVisitorId(SECRET, hex()) },
      { clientIp: "198.51.100.9", limiter },
    );
    expect(await otherListing.json()).toMatchObject({ counted: true, totalViews: 1 });
  });

  it("IPv6 addresses of one /64 share that allowance", async () => {
    const { db } = ctx();
    const id = await listing(db);
    const limiter = createRateLimiter(createMemoryStore(), { viewVisitor: { max: 3, windowSeconds: 3600 } });
    for (let i = 1; i <= 5; i++) {
      await ping(
        db,
        id,
        { [VIEW_SESSION_COOKIE]: hex(), [VIEW_VISITOR_COOKIE]: signVisitorId(SECRET, hex()) },
        { clientIp: `2001:db8:5:6::${i.toString(16)}`, limiter },
      );
    }
    expect((await counts(db, id)).views).toBe(3);
  });

  it("a flood of made-up visitors from many IPv6 networks fills the limit's memory but stops no one's view (ADR 102)", async () => {
    const { db } = ctx();
    const id = await listing(db);
    // The attack: one address in each of many /64s (an IPv6 /48 holds 65,536 of them), no cookies, until
    // the view limit holds all the windows it may. Before ADR 102 every new visitor's view was then
    // refused for the hour: a stranger could switch view counting off. (maxKeys is 50,000 in the server.)
    const store = createMemoryStore({ maxKeys: 40 });
    const limiter = createRateLimiter(store);
    for (let i = 1; i <= 40; i++) await ping(db, id, {}, { clientIp: `2001:db8:77:${i.toString(16)}::1`, limiter });
    expect(store.sizes().get("viewVisitor")).toBe(40);

    // A student arriving now still counts, and the flood's own allowances still hold.
    const student = await ping(db, id, {}, { clientIp: "198.51.100.40", limiter });
    expect(await student.json()).toMatchObject({ counted: true, totalViews: 41 });
    expect(store.overflows().get("viewVisitor")).toBeGreaterThan(0);
    const max = DEFAULT_LIMITS.viewVisitor.max;
    for (let i = 1; i <= max + 5; i++) await ping(db, id, {}, { clientIp: `2001:db8:78::${i.toString(16)}`, limiter });
    expect((await counts(db, id)).views).toBe(41 + max);
  });

  it("a real browser (no cookie, then the cookies it was given) counts one view per session", async () => {
    const { db } = ctx();
    const id = await listing(db);
    const limiter = createRateLimiter(createMemoryStore());
    const first = await ping(db, id, {}, { clientIp: "198.51.100.30", limiter });
    expect(await first.json()).toMatchObject({ counted: true, totalViews: 1, uniqueViews: 1 });
    const jar = Object.fromEntries(
      first.headers.getSetCookie().map((c) => c.split(";")[0].split("=") as [string, string]),
    );
    const reload = await ping(db, id, jar, { clientIp: "198.51.100.30", limiter });
    expect(await reload.json()).toMatchObject({ counted: false, totalViews: 1 });
    expect(reload.headers.getSetCookie()).toEqual([]);
    // Next browser session, same browser: a view, not a unique one.
    const nextSession = await ping(
      db,
      id,
      { [VIEW_VISITOR_COOKIE]: jar[VIEW_VISITOR_COOKIE] },
      { clientIp: "198.51.100.30", limiter },
    );
    expect(await nextSession.json()).toMatchObject({ counted: true, totalViews: 2, uniqueViews: 1 });
  });
});
