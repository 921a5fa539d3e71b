import { describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { createMemoryStore, createRateLimiter } from "../../app/limits/rate-limit.server";
import { findListingById, insertListing } from "../../app/models/listing.server";
import {
  hashViewerId,
  isCountableViewRequest,
  trackListingView,
  VIEW_SESSION_COOKIE,
  VIEW_VISITOR_COOKIE,
  viewerIdentity,
} from "../../app/models/view-tracking.server";
import { readCookie, signVisitorId } from "../../app/security/visitor-id.server";
import { insertTestOwner, listingInput } from "../factories";
import { describeEachDatabase } from "../test-db";

const BROWSER_UA =
  "Mozilla/5.0 (Linux; Android 13; SM-A145F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";
const GOOGLEBOT_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
// Limits far above what these tests count (tests/integration/rate-limits.test.ts covers them).
const OPTIONS = {
  visitorSalt: "test-salt",
  visitorSecret: "v".repeat(64),
  secure: false,
  limit: { limiter: createRateLimiter(createMemoryStore()), clientIp: "192.0.2.1" },
};

function pageRequest(
  cookies: Record<string, string> = {},
  init: { method?: string; headers?: Record<string, string> } = {},
) {
  const cookie = Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");
  return new Request("http://localhost/listing/room-1001", {
    method: init.method ?? "GET",
    headers: { "User-Agent": BROWSER_UA, ...(cookie ? { Cookie: cookie } : {}), ...init.headers },
  });
}

/** The cookies a browser would keep from a response's Set-Cookie headers. */
function cookiesFrom(headers: Headers, previous: Record<string, string> = {}): Record<string, string> {
  const jar = { ...previous };
  for (const line of headers.getSetCookie()) {
    const [pair] = line.split(";");
    const [name, value] = pair.split("=");
    jar[name] = value;
  }
  return jar;
}

async function addListing(db: DB, n: number) {
  const owner = await insertTestOwner(db, `owner-${n}`);
  const { id } = await insertListing(
    db,
    owner,
    listingInput({ title: `Room ${n} near campus`, description: "A quiet room.", price: 15000 }),
  );
  return id;
}

describeEachDatabase("listing view tracking", (ctx) => {
  it("counts the same browser session once", async () => {
    const { db } = ctx();
    const id = await addListing(db, 1);
    const first = await trackListingView(db, pageRequest(), id, OPTIONS);
    expect(first).toMatchObject({ views: 1, uniqueViews: 1, counted: true });
    const jar = cookiesFrom(first!.headers);

    const again = await trackListingView(db, pageRequest(jar), id, OPTIONS);
    expect(again).toMatchObject({ views: 1, uniqueViews: 1, counted: false });
    expect(again!.headers.getSetCookie()).toEqual([]);
    expect(await findListingById(db, id)).toMatchObject({ views: 1, uniqueViews: 1 });
  });

  it("counts a new session of the same visitor as a view but not as a unique view", async () => {
    const { db } = ctx();
    const id = await addListing(db, 2);
    const first = await trackListingView(db, pageRequest(), id, OPTIONS);
    const jar = cookiesFrom(first!.headers);
    // The browser was closed: the session cookie is gone, the visitor cookie stays.
    const nextSession = await trackListingView(
      db,
      pageRequest({ [VIEW_VISITOR_COOKIE]: jar[VIEW_VISITOR_COOKIE] }),
      id,
      OPTIONS,
    );
    expect(nextSession).toMatchObject({ views: 2, uniqueViews: 1, counted: true });
    const setCookies = nextSession!.headers.getSetCookie();
    expect(setCookies).toHaveLength(1);
    expect(setCookies[0]).toMatch(new RegExp(`^${VIEW_SESSION_COOKIE}=`));
  });

  it("counts a new visitor as a view and a unique view", async () => {
    const { db } = ctx();
    const id = await addListing(db, 3);
    await trackListingView(db, pageRequest(), id, OPTIONS);
    const other = await trackListingView(db, pageRequest(), id, OPTIONS);
    expect(other).toMatchObject({ views: 2, uniqueViews: 2, counted: true });
    const listing = await findListingById(db, id);
    expect(listing?.lastViewed).not.toBeNull();
  });

  it("counts one session separately for each listing", async () => {
    const { db } = ctx();
    const a = await addListing(db, 4);
    const b = await addListing(db, 5);
    const first = await trackListingView(db, pageRequest(), a, OPTIONS);
    const jar = cookiesFrom(first!.headers);
    expect(await trackListingView(db, pageRequest(jar), b, OPTIONS)).toMatchObject({ views: 1, counted: true });
    expect(await trackListingView(db, pageRequest(jar), a, OPTIONS)).toMatchObject({ views: 1, counted: false });
  });

  it("does not count bots, prefetches or HEAD requests, and sets no cookies for them", async () => {
    const { db } = ctx();
    const id = await addListing(db, 6);
    expect(
      await trackListingView(db, pageRequest({}, { headers: { "User-Agent": GOOGLEBOT_UA } }), id, OPTIONS),
    ).toBeNull();
    expect(
      await trackListingView(db, pageRequest({}, { headers: { "Sec-Purpose": "prefetch" } }), id, OPTIONS),
    ).toBeNull();
    expect(await trackListingView(db, pageRequest({}, { headers: { Purpose: "prefetch" } }), id, OPTIONS)).toBeNull();
    expect(await trackListingView(db, pageRequest({}, { method: "HEAD" }), id, OPTIONS)).toBeNull();
    expect(await findListingById(db, id)).toMatchObject({ views: 0, uniqueViews: 0, lastViewed: null });
  });

  it("stores only salted hashes of the cookie values", async () => {
    const { db } = ctx();
    const id = await addListing(db, 7);
    const first = await trackListingView(db, pageRequest(), id, OPTIONS);
    const jar = cookiesFrom(first!.headers);
    const rows = await db.selectFrom("listing_views").selectAll().where("listingId", "=", id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].sessionKey).toBe(hashViewerId(OPTIONS.visitorSalt, "session", jar[VIEW_SESSION_COOKIE]));
    // The cookie is the signed id ("<id>.<signature>"); the id is what is hashed.
    expect(rows[0].visitorKey).toBe(
      hashViewerId(OPTIONS.visitorSalt, "visitor", jar[VIEW_VISITOR_COOKIE].split(".")[0]),
    );
    expect(JSON.stringify(rows)).not.toContain(jar[VIEW_SESSION_COOKIE]);
    expect(JSON.stringify(rows)).not.toContain(jar[VIEW_VISITOR_COOKIE]);
  });
});

describe("view tracking cookies", () => {
  it("sets a browser-session cookie and a one-year visitor cookie, HttpOnly and SameSite=Lax", () => {
    const { headers, sessionId, visitorId } = viewerIdentity(pageRequest(), {
      secure: false,
      visitorSecret: OPTIONS.visitorSecret,
    });
    const [session, visitor] = headers.getSetCookie();
    expect(session).toBe(`${VIEW_SESSION_COOKIE}=${sessionId}; Path=/; HttpOnly; SameSite=Lax`);
    expect(visitor).toBe(
      `${VIEW_VISITOR_COOKIE}=${signVisitorId(OPTIONS.visitorSecret, visitorId)}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax`,
    );
    expect(sessionId).toMatch(/^[a-f0-9]{32}$/);
    expect(visitorId).not.toBe(sessionId);
  });

  it("marks the cookies Secure on an https site", () => {
    const { headers } = viewerIdentity(pageRequest(), { secure: true, visitorSecret: OPTIONS.visitorSecret });
    for (const line of headers.getSetCookie()) expect(line).toMatch(/; Secure$/);
  });

  it("replaces malformed cookie values, and visitor ids this server did not sign", () => {
    const unsigned = viewerIdentity(
      pageRequest({ [VIEW_SESSION_COOKIE]: "x'; drop table", [VIEW_VISITOR_COOKIE]: "a".repeat(32) }),
      { secure: false, visitorSecret: OPTIONS.visitorSecret },
    );
    expect(unsigned.sessionId).toMatch(/^[a-f0-9]{32}$/);
    expect(unsigned.returning).toBe(false);
    expect(unsigned.visitorId).not.toBe("a".repeat(32));
    expect(unsigned.headers.getSetCookie()).toHaveLength(2);
    const signed = viewerIdentity(
      pageRequest({
        [VIEW_SESSION_COOKIE]: "x'; drop table",
        [VIEW_VISITOR_COOKIE]: signVisitorId(OPTIONS.visitorSecret, "a".repeat(32)),
      }),
      { secure: false, visitorSecret: OPTIONS.visitorSecret },
    );
    expect(signed).toMatchObject({ visitorId: "a".repeat(32), returning: true });
    expect(signed.headers.getSetCookie()).toHaveLength(1);
  });

  it("reads one cookie among others", () => {
    expect(readCookie("a=1; bodima_vs=abc; b=2", VIEW_SESSION_COOKIE)).toBe("abc");
    expect(readCookie("xbodima_vs=abc", VIEW_SESSION_COOKIE)).toBeNull();
    expect(readCookie(null, VIEW_SESSION_COOKIE)).toBeNull();
  });

  it("treats crawlers and requests without a user agent as not countable", () => {
    expect(isCountableViewRequest(pageRequest())).toBe(true);
    expect(isCountableViewRequest(pageRequest({}, { method: "POST" }))).toBe(true);
    expect(isCountableViewRequest(pageRequest({}, { headers: { "User-Agent": GOOGLEBOT_UA } }))).toBe(false);
    expect(isCountableViewRequest(pageRequest({}, { headers: { "User-Agent": "" } }))).toBe(false);
    expect(isCountableViewRequest(pageRequest({}, { headers: { "Sec-Purpose": "prefetch;prerender" } }))).toBe(false);
  });
});
