import { randomBytes } from "node:crypto";
import { afterEach, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { currentTime, setClock } from "../../app/lib/clock";
import { createMemoryStore, createRateLimiter } from "../../app/limits/rate-limit.server";
import { findListingBySlug, insertListing } from "../../app/models/listing.server";
import { renewOwnerListing } from "../../app/models/listing-availability.server";
import { hideListing } from "../../app/models/listing-moderation.server";
import { searchListings } from "../../app/models/listing-search.server";
import { trackListingView } from "../../app/models/view-tracking.server";
import { toListingView } from "../../app/pages/listing-page.server";
import { action, loader } from "../../app/routes/listing.already-let";
import type { BrowseFilters } from "../../app/schemas/browse-filters";
import { signVisitorId } from "../../app/security/visitor-id.server";
import { insertTestOwner, listingInput } from "../factories";
import { signedInAccount } from "../owner-fixtures";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { describeEachDatabase } from "../test-db";
import "virtual:catalogue/listing-server";

// 'Already let? Tell us' (ADR 057, ADR 064), through its route as the page's
// form posts it (cookies, address, origin), on both databases. An answer counts
// only from a browser seen opening listings hours before, or from an account;
// three networks (IPv6 per /56) are needed; a confirmation overrules the
// networks that answered and starts a cool-down; the owner hears once a week.

afterEach(() => setClock(undefined));

const SECRET = "y".repeat(64); // testContext's sessionSecret
const SALT = "s".repeat(32); // testContext's visitorSalt
const UA =
  "Mozilla/5.0 (Linux; Android 13; SM-A145F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
let seq = 0;

type Limiter = ReturnType<typeof createRateLimiter>;

const newId = () => randomBytes(16).toString("hex");
/** A browser the server has just given a signed visitor id: it has opened nothing yet. */
const browser = () => `bodima_vid=${signVisitorId(SECRET, newId())}`;

/** Moves the clock by `ms` from its current reading. */
const later = (ms: number) => setClock(new Date(currentTime().getTime() + ms).toISOString());

/**
 * A browser that opened a listing page `hoursAgo` hours ago, counted as the
 * listing page counts views (the signed cookie and the server's own record).
 */
async function seenBrowser(db: DB, listingId: number, hoursAgo = 7, id = newId()) {
  const cookie = `bodima_vid=${signVisitorId(SECRET, id)}`;
  const request = new Request(`${TEST_SITE}/listing/x`, { headers: { cookie, "user-agent": UA } });
  const viewed = await trackListingView(db, request, listingId, {
    visitorSalt: SALT,
    visitorSecret: SECRET,
    secure: false,
    now: new Date(currentTime().getTime() - hoursAgo * HOUR),
    limit: { limiter: createRateLimiter(createMemoryStore()), clientIp: "192.0.2.200" },
  });
  expect(viewed?.counted).toBe(true);
  return cookie;
}

/** A listing posted at `at`; the clock then stands past the cool-down that follows posting. */
async function newListing(db: DB, at = new Date("2027-01-10T08:00:00Z")) {
  setClock(at.toISOString());
  const owner = await insertTestOwner(db, `let-${++seq}-${Date.now()}`);
  const listing = await insertListing(db, owner, listingInput({ title: `Let room ${seq}` }));
  later(4 * DAY);
  return { ...listing, owner };
}

async function tell(db: DB, slug: string, from: { ip: string; cookie?: string; origin?: string; limiter?: Limiter }) {
  const headers: Record<string, string> = { Origin: from.origin ?? TEST_SITE };
  if (from.cookie) headers.Cookie = from.cookie;
  const request = new Request(`${TEST_SITE}/listing/${slug}/already-let`, { method: "POST", headers });
  const context = testContext({ db, clientIp: from.ip, limiter: from.limiter });
  const result = await action({ request, context, params: { slug } } as unknown as Parameters<typeof action>[0]);
  return unwrapResult(result);
}

/** Seen browsers answer from each address in turn. */
async function tellFromSeen(db: DB, listing: { id: number; slug: string }, ips: string[]) {
  for (const ip of ips) {
    const answer = await tell(db, listing.slug, { ip, cookie: await seenBrowser(db, listing.id) });
    expect(answer.body.status).toBe("thanks");
  }
}

const unconfirmed = async (db: DB, slug: string) => (await findListingBySlug(db, slug))!.availabilityUnconfirmed;
const ownerMails = (db: DB, email: string) =>
  db
    .selectFrom("outbox")
    .select(["subject", "text"])
    .where("to", "=", email)
    .where("kind", "=", "availability-unconfirmed")
    .execute();

const THREE_NETWORKS = ["198.51.100.7", "203.0.113.9", "192.0.2.1"];

describeEachDatabase("'Already let?'", (ctx) => {
  it("answers from new browsers sink nothing, however many networks they come from", async () => {
    const { db } = ctx();
    const { slug, owner } = await newListing(db);
    for (let i = 1; i <= 12; i++) {
      // No cookie at all, then a freshly issued one: each is thanked like anyone else.
      const first = await tell(db, slug, { ip: `100.${64 + i}.0.1` });
      expect(first.body.status).toBe("thanks");
      expect((await tell(db, slug, { ip: `100.${64 + i}.1.1`, cookie: browser() })).body.status).toBe("thanks");
    }
    expect(await unconfirmed(db, slug)).toBe(false);
    expect(await ownerMails(db, owner.email)).toHaveLength(0);
  });

  it("three browsers seen before, on three networks within a week, mark it unconfirmed and ask the owner once", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const { slug, owner } = listing;
    await tellFromSeen(db, listing, THREE_NETWORKS.slice(0, 2));
    // Two networks are no longer enough.
    expect(await unconfirmed(db, slug)).toBe(false);
    await tellFromSeen(db, listing, THREE_NETWORKS.slice(2));
    expect(await unconfirmed(db, slug)).toBe(true);
    const page = toListingView((await findListingBySlug(db, slug))!, 0);
    expect(page.confirmedLine).toBe("Availability unconfirmed: students say it may be let");
    // It stays public: this never hides a listing by itself.
    expect((await findListingBySlug(db, slug))!.isPublic).toBe(true);

    await tellFromSeen(db, listing, ["100.64.0.1"]);
    const mails = await ownerMails(db, owner.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain("may already be let");
    expect(mails[0].text).toMatch(/\/availability\/\d+\.yes\./);
    expect(mails[0].text).toMatch(/\/availability\/\d+\.no\./);
  });

  it("a browser counts only once it was seen opening listings hours ago; a forged cookie never", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const { id, slug } = listing;
    const seenId = newId();
    await seenBrowser(db, id, 7, seenId);
    const answers = [
      // A seen browser's id with a signature the server did not make (another secret).
      `bodima_vid=${signVisitorId("z".repeat(64), seenId)}`,
      // The bare id, unsigned.
      `bodima_vid=${seenId}`,
      // A cookie the server signed, whose first listing was opened only an hour ago.
      await seenBrowser(db, id, 1),
    ];
    for (const [i, cookie] of answers.entries()) {
      expect((await tell(db, slug, { ip: `100.${70 + i}.0.1`, cookie })).body.status).toBe("thanks");
    }
    await tellFromSeen(db, listing, ["100.80.0.1", "100.81.0.1"]);
    // Five networks, but only two answers from browsers that were seen in time.
    expect(await unconfirmed(db, slug)).toBe(false);
    await tellFromSeen(db, listing, ["100.82.0.1"]);
    expect(await unconfirmed(db, slug)).toBe(true);
  });

  it("signed-in accounts count; one account counts once, from any browser or network", async () => {
    const { db } = ctx();
    // Near the real time: sessions end 30 days after sign-in by the real clock.
    const { slug } = await newListing(db, new Date(Date.now() - 5 * DAY));
    const first = await signedInAccount(db, "let-a");
    const second = await signedInAccount(db, "let-b");
    expect((await tell(db, slug, { ip: "198.51.100.7", cookie: first.cookie })).body.status).toBe("thanks");
    const again = await tell(db, slug, { ip: "203.0.113.9", cookie: `${first.cookie}; ${browser()}` });
    expect(again.body.status).toBe("already");
    expect((await tell(db, slug, { ip: "203.0.113.9", cookie: second.cookie })).body.status).toBe("thanks");
    expect(await unconfirmed(db, slug)).toBe(false);
    const third = await signedInAccount(db, "let-c");
    expect((await tell(db, slug, { ip: "192.0.2.1", cookie: third.cookie })).body.status).toBe("thanks");
    expect(await unconfirmed(db, slug)).toBe(true);
  });

  it("one IPv6 /56 is one network", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    // Four /64 networks of one household's /56, and one IPv4 network.
    await tellFromSeen(db, listing, [
      "2001:db8:aa:1200::1",
      "2001:db8:aa:1201::1",
      "2001:db8:aa:12ff:ffff::9",
      "[2001:DB8:AA:1234::5]:443",
      "198.51.100.7",
    ]);
    expect(await unconfirmed(db, listing.slug)).toBe(false);
    // The next /56 along is another network.
    await tellFromSeen(db, listing, ["2001:db8:aa:1300::1"]);
    expect(await unconfirmed(db, listing.slug)).toBe(true);
  });

  it("counts three answers from three networks that arrive at the same moment", async () => {
    const { db } = ctx();
    // Several listings, each told three times at once: without a lock on PostgreSQL each answer's
    // transaction could count only itself, and the listing would stay unmarked.
    const listings: { slug: string; cookies: string[] }[] = [];
    for (let i = 0; i < 6; i++) {
      const listing = await newListing(db);
      const cookies: string[] = [];
      for (let j = 0; j < 3; j++) cookies.push(await seenBrowser(db, listing.id));
      listings.push({ slug: listing.slug, cookies });
    }
    await Promise.all(
      listings.flatMap(({ slug, cookies }) =>
        THREE_NETWORKS.map((ip, j) => tell(db, slug, { ip, cookie: cookies[j] })),
      ),
    );
    for (const { slug } of listings) expect(await unconfirmed(db, slug)).toBe(true);
  });

  it("needs three networks: many browsers on one network, or one browser many times, are not enough", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const { slug } = listing;
    await tellFromSeen(db, listing, ["198.51.100.1", "198.51.100.2", "198.51.100.3", "198.51.100.4"]);
    expect(await unconfirmed(db, slug)).toBe(false);
    const same = await seenBrowser(db, listing.id);
    expect((await tell(db, slug, { ip: "203.0.113.9", cookie: same })).body.status).toBe("thanks");
    expect((await tell(db, slug, { ip: "192.0.2.1", cookie: same })).body.status).toBe("already");
    // The second network's answer counted; the same browser again from a third did not add one.
    expect(await unconfirmed(db, slug)).toBe(false);
    await tellFromSeen(db, listing, ["192.0.2.1"]);
    expect(await unconfirmed(db, slug)).toBe(true);
  });

  it("counts only the last 7 days, and only since the owner last confirmed; confirming clears it", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const { id, slug, owner } = listing;
    await tellFromSeen(db, listing, ["198.51.100.7"]);
    later(8 * DAY);
    await tellFromSeen(db, listing, ["203.0.113.9", "192.0.2.1"]);
    expect(await unconfirmed(db, slug)).toBe(false);

    await tellFromSeen(db, listing, ["100.64.0.1"]);
    expect(await unconfirmed(db, slug)).toBe(true);
    expect((await renewOwnerListing(db, owner.id, id)).ok).toBe(true);
    expect(await unconfirmed(db, slug)).toBe(false);
    // Answers from before the confirmation no longer count: two more are not enough.
    later(4 * DAY);
    await tellFromSeen(db, listing, ["100.65.0.1", "100.66.0.1"]);
    expect(await unconfirmed(db, slug)).toBe(false);
  });

  it("after the owner confirms: a cool-down, and the networks that answered never count again", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const { id, slug, owner } = listing;
    await tellFromSeen(db, listing, THREE_NETWORKS);
    expect(await unconfirmed(db, slug)).toBe(true);
    later(HOUR);
    expect((await renewOwnerListing(db, owner.id, id)).ok).toBe(true);

    // Within three days of the confirmation nothing counts, from any network.
    later(2 * DAY);
    await tellFromSeen(db, listing, ["100.64.0.1", "100.65.0.1", "100.66.0.1"]);
    expect(await unconfirmed(db, slug)).toBe(false);

    // After it, the networks that sank it before are overruled, with new browsers and new addresses in them.
    later(2 * DAY);
    await tellFromSeen(db, listing, ["198.51.100.77", "203.0.113.99", "192.0.2.11"]);
    expect(await unconfirmed(db, slug)).toBe(false);
    // Only new networks count: one more with one answer that counted is three.
    await tellFromSeen(db, listing, ["100.67.0.1", "100.68.0.1"]);
    expect(await unconfirmed(db, slug)).toBe(false);
    await tellFromSeen(db, listing, ["100.69.0.1"]);
    expect(await unconfirmed(db, slug)).toBe(true);
  });

  it("emails the owner at most once a week per listing, however often it sinks", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const { id, slug, owner } = listing;
    let block = 0;
    const sink = async () => {
      block += 1;
      await tellFromSeen(db, listing, [`10.${block}.1.1`, `10.${block}.2.1`, `10.${block}.3.1`]);
      expect(await unconfirmed(db, slug)).toBe(true);
    };
    await sink();
    expect(await ownerMails(db, owner.email)).toHaveLength(1);
    expect((await renewOwnerListing(db, owner.id, id)).ok).toBe(true);
    later(3 * DAY + HOUR);
    await sink();
    // Sunk again within the week: it sinks, but the owner is not emailed again.
    expect(await ownerMails(db, owner.email)).toHaveLength(1);
    expect((await renewOwnerListing(db, owner.id, id)).ok).toBe(true);
    // A week and an hour after the first email.
    later(4 * DAY);
    await sink();
    expect(await ownerMails(db, owner.email)).toHaveLength(2);
  });

  it("one browser counts on a few listings a day, not on every listing", async () => {
    const { db } = ctx();
    const limiter = createRateLimiter(createMemoryStore());
    const listings: { id: number; slug: string }[] = [];
    for (let i = 0; i < 6; i++) listings.push(await newListing(db, new Date("2027-02-01T08:00:00Z")));
    const browsers = await Promise.all(THREE_NETWORKS.map(() => seenBrowser(db, listings[0].id)));
    for (const { slug } of listings)
      for (const [j, ip] of THREE_NETWORKS.entries()) await tell(db, slug, { ip, cookie: browsers[j], limiter });
    const sunk = [];
    for (const { slug } of listings) sunk.push(await unconfirmed(db, slug));
    expect(sunk).toEqual([true, true, true, true, true, false]);
  });

  it("sinks the listing below the others in browse and the API until the owner confirms", async () => {
    const { db } = ctx();
    const word = `sinkword${Date.now().toString(36)}`;
    const at = new Date("2027-03-01T08:00:00Z");
    const made: { id: number; slug: string; title: string; owner: { id: string } }[] = [];
    for (let i = 0; i < 3; i++) {
      setClock(new Date(at.getTime() + i * 60_000).toISOString());
      const owner = await insertTestOwner(db, `sink-${i}-${Date.now()}`);
      const title = `Room ${word} ${i}`;
      made.push({ ...(await insertListing(db, owner, listingInput({ title }))), owner, title });
    }
    later(4 * DAY);
    const [oldest, middle, newest] = made;
    const titles = async (filters: BrowseFilters, page = 1, limit = 10) =>
      (await searchListings(db, filters, { page, limit })).ads.map((a) => a.title);
    const bySearch = { search: word, sort: "newest" } as const;
    const byUniversity = { university: "University of Moratuwa", propertyType: "single", maxPrice: 10000 } as const;
    expect(await titles(bySearch)).toEqual([newest.title, middle.title, oldest.title]);
    expect(await titles(byUniversity, 1, 2)).toEqual([newest.title, middle.title]);

    const lastInvalidation = async () =>
      Number(
        (
          await db
            .selectFrom("page_invalidations")
            .select((eb) => eb.fn.max("id").as("id"))
            .executeTakeFirst()
        )?.id ?? 0,
      );
    const cookies: string[] = [];
    for (let j = 0; j < 3; j++) cookies.push(await seenBrowser(db, middle.id));
    const before = await lastInvalidation();
    for (const [j, ip] of THREE_NETWORKS.entries()) await tell(db, newest.slug, { ip, cookie: cookies[j] });
    expect(await unconfirmed(db, newest.slug)).toBe(true);
    // Every process drops its cached copies of the listing's page and of the lists.
    const changes = await db
      .selectFrom("page_invalidations")
      .select(["listingId", "viewsOnly"])
      .where("id", ">", before)
      .execute();
    expect(changes.map((c) => ({ listingId: c.listingId, viewsOnly: Number(c.viewsOnly) }))).toEqual([
      { listingId: newest.id, viewsOnly: 0 },
    ]);
    // Still found and counted, but after every place nobody doubts, on every page.
    expect(await titles(bySearch)).toEqual([middle.title, oldest.title, newest.title]);
    expect(await titles(byUniversity, 1, 2)).toEqual([middle.title, oldest.title]);
    expect(await titles(byUniversity, 2, 2)).toEqual([newest.title]);
    expect((await searchListings(db, byUniversity, { page: 1, limit: 2 })).pagination.total).toBe(3);

    expect((await renewOwnerListing(db, newest.owner.id, newest.id)).ok).toBe(true);
    expect(await titles(bySearch)).toEqual([newest.title, middle.title, oldest.title]);
    expect(await titles(byUniversity, 1, 2)).toEqual([newest.title, middle.title]);
  });

  it("refuses another site's form, a listing not in search, and a flood from one network", async () => {
    const { db } = ctx();
    const { id, slug } = await newListing(db);
    expect((await tell(db, slug, { ip: "198.51.100.7", origin: "https://evil.example" })).status).toBe(403);
    const limiter = createRateLimiter(createMemoryStore(), { letReportNetwork: { max: 2, windowSeconds: 3600 } });
    await tell(db, slug, { ip: "198.51.100.1", cookie: browser(), limiter });
    await tell(db, slug, { ip: "198.51.100.2", cookie: browser(), limiter });
    const flood = await tell(db, slug, { ip: "198.51.100.3", cookie: browser(), limiter });
    expect(flood.status).toBe(429);
    expect(flood.body.message).toBe("Too many answers from your network. Please try again later.");

    await hideListing(db, null, id, "test");
    expect((await tell(db, slug, { ip: "203.0.113.9", cookie: browser() })).status).toBe(404);
    const request = new Request(`${TEST_SITE}/listing/${slug}/already-let`);
    const page = await loader({ request, context: testContext({ db }), params: { slug } } as unknown as Parameters<
      typeof loader
    >[0]);
    expect(unwrapResult(page).status).toBe(404);
  });
});
