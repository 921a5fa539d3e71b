import { randomBytes } from "node:crypto";
import { afterEach, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { setClock } from "../../app/lib/clock";
import { createMemoryStore, createRateLimiter } from "../../app/limits/rate-limit.server";
import { findListingBySlug, insertListing, searchListings } from "../../app/models/listing.server";
import { renewOwnerListing } from "../../app/models/listing-availability.server";
import { hideListing } from "../../app/models/listing-moderation.server";
import { toListingView } from "../../app/pages/listing-page.server";
import { action, loader } from "../../app/routes/listing.already-let";
import type { BrowseFilters } from "../../app/schemas/browse-filters";
import { signVisitorId } from "../../app/security/visitor-id.server";
import { insertTestOwner, listingInput } from "../factories";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { describeEachDatabase } from "../test-db";
import "virtual:catalogue/listing-server";

// Issue 13, point 5: 'Already let? Tell us', through its route as the page's
// form posts it (cookies, address, origin), on both databases.

afterEach(() => setClock(undefined));

const SECRET = "y".repeat(64); // testContext's sessionSecret
const browser = () => `bodima_vid=${signVisitorId(SECRET, randomBytes(16).toString("hex"))}`;
const DAY = 24 * 60 * 60 * 1000;
let seq = 0;

type Limiter = ReturnType<typeof createRateLimiter>;

async function newListing(db: DB, at = new Date("2027-01-10T08:00:00Z")) {
  setClock(at.toISOString());
  const owner = await insertTestOwner(db, `let-${++seq}-${Date.now()}`);
  const listing = await insertListing(db, owner, listingInput({ title: `Let room ${seq}` }));
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

const unconfirmed = async (db: DB, slug: string) => (await findListingBySlug(db, slug))!.availabilityUnconfirmed;
const ownerMails = (db: DB, email: string) =>
  db
    .selectFrom("outbox")
    .select(["subject", "text"])
    .where("to", "=", email)
    .where("kind", "=", "availability-unconfirmed")
    .execute();

describeEachDatabase("'Already let?'", (ctx) => {
  it("two browsers from different networks within a week mark it unconfirmed and ask the owner once", async () => {
    const { db } = ctx();
    const { slug, owner } = await newListing(db);
    expect((await tell(db, slug, { ip: "198.51.100.7", cookie: browser() })).body.status).toBe("thanks");
    expect(await unconfirmed(db, slug)).toBe(false);
    expect((await tell(db, slug, { ip: "203.0.113.9", cookie: browser() })).body.status).toBe("thanks");
    expect(await unconfirmed(db, slug)).toBe(true);
    const page = toListingView((await findListingBySlug(db, slug))!, 0);
    expect(page.confirmedLine).toBe("Availability unconfirmed: students say it may be let");
    // It stays public: this never hides a listing by itself.
    expect((await findListingBySlug(db, slug))!.isPublic).toBe(true);

    await tell(db, slug, { ip: "192.0.2.1", cookie: browser() });
    const mails = await ownerMails(db, owner.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain("may already be let");
    expect(mails[0].text).toMatch(/\/availability\/\d+\.yes\./);
    expect(mails[0].text).toMatch(/\/availability\/\d+\.no\./);
  });

  it("counts two answers from two networks that arrive at the same moment", async () => {
    const { db } = ctx();
    // Several listings, each told twice at once: without a lock on PostgreSQL each answer's
    // transaction could count only itself, and the listing would stay unmarked.
    const listings = await Promise.all([1, 2, 3, 4, 5, 6].map(() => newListing(db)));
    await Promise.all(
      listings.flatMap(({ slug }) => [
        tell(db, slug, { ip: "198.51.100.7", cookie: browser() }),
        tell(db, slug, { ip: "203.0.113.9", cookie: browser() }),
      ]),
    );
    for (const { slug } of listings) expect(await unconfirmed(db, slug)).toBe(true);
  });

  it("needs two networks: many browsers on one network, or one browser many times, are not enough", async () => {
    const { db } = ctx();
    const { slug } = await newListing(db);
    for (let i = 1; i <= 5; i++) await tell(db, slug, { ip: `198.51.100.${i}`, cookie: browser() });
    expect(await unconfirmed(db, slug)).toBe(false);
    const same = browser();
    expect((await tell(db, slug, { ip: "203.0.113.9", cookie: same })).body.status).toBe("thanks");
    expect((await tell(db, slug, { ip: "192.0.2.1", cookie: same })).body.status).toBe("already");
    // The second network's answer counted; the same browser again from a third did not add one.
    expect(await unconfirmed(db, slug)).toBe(true);
  });

  it("one browser counts once even from two networks", async () => {
    const { db } = ctx();
    const { slug } = await newListing(db);
    const same = browser();
    await tell(db, slug, { ip: "198.51.100.7", cookie: same });
    expect((await tell(db, slug, { ip: "203.0.113.9", cookie: same })).body.status).toBe("already");
    expect(await unconfirmed(db, slug)).toBe(false);
  });

  it("counts only the last 7 days, and only since the owner last confirmed; confirming clears it", async () => {
    const { db } = ctx();
    const start = new Date("2027-01-10T08:00:00Z");
    const { id, slug, owner } = await newListing(db, start);
    await tell(db, slug, { ip: "198.51.100.7", cookie: browser() });
    setClock(new Date(start.getTime() + 8 * DAY).toISOString());
    await tell(db, slug, { ip: "203.0.113.9", cookie: browser() });
    expect(await unconfirmed(db, slug)).toBe(false);

    await tell(db, slug, { ip: "192.0.2.1", cookie: browser() });
    expect(await unconfirmed(db, slug)).toBe(true);
    expect((await renewOwnerListing(db, owner.id, id)).ok).toBe(true);
    expect(await unconfirmed(db, slug)).toBe(false);
    // Answers from before the confirmation no longer count: one more is not enough.
    setClock(new Date(start.getTime() + 8 * DAY + 60_000).toISOString());
    await tell(db, slug, { ip: "100.64.0.1", cookie: browser() });
    expect(await unconfirmed(db, slug)).toBe(false);
  });

  it("sinks the listing below the others in browse and the API until the owner confirms", async () => {
    const { db } = ctx();
    const word = `sinkword${Date.now().toString(36)}`;
    const at = new Date("2027-03-01T08:00:00Z");
    const made = [];
    for (let i = 0; i < 3; i++) {
      setClock(new Date(at.getTime() + i * 60_000).toISOString());
      const owner = await insertTestOwner(db, `sink-${i}-${Date.now()}`);
      const title = `Room ${word} ${i}`;
      made.push({ ...(await insertListing(db, owner, listingInput({ title }))), owner, title });
    }
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
    const before = await lastInvalidation();
    await tell(db, newest.slug, { ip: "198.51.100.7", cookie: browser() });
    await tell(db, newest.slug, { ip: "203.0.113.9", cookie: browser() });
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
