import { randomBytes } from "node:crypto";
import pino from "pino";
import { afterEach, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { parseEnv } from "../../app/env.server";
import { type MessageKey, t } from "../../app/i18n";
import { runJob } from "../../app/jobs/jobs.server";
import { setClock } from "../../app/lib/clock";
import { createMemoryStore, createRateLimiter } from "../../app/limits/rate-limit.server";
import { findListingBySlug, insertListing } from "../../app/models/listing.server";
import { restoreListing } from "../../app/models/listing-moderation.server";
import { createReport, REPORTS_PER_ORIGIN_PER_LISTING } from "../../app/models/report.server";
import { action } from "../../app/routes/listing.report";
import { signVisitorId } from "../../app/security/visitor-id.server";
import { insertTestOwner, listingInput } from "../factories";
import { signedInAccount } from "../owner-fixtures";
import { resultHeaders, TEST_SITE, testContext, unwrapResult } from "../request-context";
import { describeEachDatabase } from "../test-db";
import "virtual:catalogue/report";

// ADR 017: the attacks on automatic hiding, sent as the browser's form
// posts would be (the route's action with a real Request: cookies, address).

type ActionArgs = Parameters<typeof action>[0];
type Listing = { id: number; slug: string; title: string };
type Sender = { clientIp: string; cookie?: string };

const SECRET = "y".repeat(64); // testContext's sessionSecret, which signs visitor ids
const hex = () => randomBytes(16).toString("hex");
const signedVisitor = () => `bodima_vid=${signVisitorId(SECRET, hex())}`;
let seq = 0;
const unique = () => `${Date.now().toString(36)}${++seq}`;
let networks = 0;
/** A reporter of their own: own /24, own browser (a visitor id the site signed). */
const independent = (): Sender => {
  const n = ++networks;
  return { clientIp: `172.16.${n}.9`, cookie: signedVisitor() };
};

afterEach(() => setClock(undefined));

async function newListing(db: DB): Promise<Listing & { ownerEmail: string }> {
  const owner = await insertTestOwner(db, `abuse-owner-${unique()}`, { name: "Sunil Owner" });
  const title = `Annex ${unique()}`;
  const { id, slug } = await insertListing(db, owner, listingInput({ title }));
  return { id, slug, title, ownerEmail: owner.email };
}

function report(listing: Listing, overrides: Record<string, string> = {}) {
  return {
    listingId: String(listing.id),
    reporterName: "Made Up",
    reporterEmail: `made-up-${unique()}@example.com`,
    reporterContact: "0712345678",
    reason: "fake-listing",
    description: "",
    website: "",
    ...overrides,
  };
}

async function post(
  db: DB,
  listing: Listing,
  sender: Sender,
  options: {
    limiter?: ReturnType<typeof createRateLimiter>;
    env?: Record<string, string>;
    fields?: Record<string, string>;
  } = {},
) {
  const headers: Record<string, string> = { Origin: TEST_SITE };
  if (sender.cookie) headers.Cookie = sender.cookie;
  const request = new Request(`${TEST_SITE}/listing/${listing.slug}/report`, {
    method: "POST",
    headers,
    body: new URLSearchParams(report(listing, options.fields)),
  });
  const context = testContext({
    db,
    clientIp: sender.clientIp,
    limiter: options.limiter,
    env: { SUPPORT_EMAIL: "mods@bodima.test", ...options.env },
  });
  const result = await action({ request, params: { slug: listing.slug }, context } as unknown as ActionArgs);
  return { ...unwrapResult(result), headers: resultHeaders(result) };
}

/** Whether the public listing page still exists (a hidden listing's page is 404). */
async function isPublic(db: DB, listing: Listing) {
  return (await findListingBySlug(db, listing.slug)) !== null;
}

const reportCount = async (db: DB, listing: Listing) =>
  (await db.selectFrom("reports").select("id").where("listingId", "=", listing.id).execute()).length;

const moderatorMail = (db: DB, listing: Listing) =>
  db
    .selectFrom("outbox")
    .selectAll()
    .where("to", "=", "mods@bodima.test")
    .where("subject", "like", `%ad #${listing.id}%`)
    .orderBy("createdAt")
    .execute();

const moderator = { id: "mod-1", email: "mod@bodima.test" };

describeEachDatabase("attacks on automatic hiding", (ctx) => {
  it("three reports from one address with made-up emails do not hide the listing (cookies or not)", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    for (let i = 0; i < 3; i++) expect((await post(db, listing, { clientIp: "198.51.100.7" })).status).toBe(200);
    expect(await isPublic(db, listing)).toBe(true);

    // Three browsers (three signed ids) on one network: still one reporter.
    const other = await newListing(db);
    for (let i = 0; i < 3; i++)
      expect((await post(db, other, { clientIp: `198.51.100.${10 + i}`, cookie: signedVisitor() })).status).toBe(200);
    expect(await isPublic(db, other)).toBe(true);
    // Every report is stored for moderators all the same.
    expect(await reportCount(db, listing)).toBe(3);
    expect(await reportCount(db, other)).toBe(3);
  });

  it("reports from three networks with one browser's visitor id do not hide it", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const cookie = signedVisitor();
    for (const clientIp of ["192.0.2.1", "198.51.100.1", "2001:db8:77::1"])
      expect((await post(db, listing, { clientIp, cookie })).status).toBe(200);
    expect(await isPublic(db, listing)).toBe(true);
  });

  it("made-up or tampered visitor ids from three networks do not hide it", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const forged = [
      `bodima_vid=${hex()}`,
      `bodima_vid=${hex()}.${"A".repeat(43)}`,
      `bodima_vid=${signVisitorId("z".repeat(64), hex())}`,
    ];
    for (const [i, cookie] of forged.entries())
      expect((await post(db, listing, { clientIp: `100.64.${i}.1`, cookie })).status).toBe(200);
    expect(await isPublic(db, listing)).toBe(true);
  });

  it("truly independent reporters still hide it: three anonymous ones, or a signed-in one (weight 2) and one more", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    await post(db, listing, independent());
    await post(db, listing, independent());
    expect(await isPublic(db, listing)).toBe(true);
    await post(db, listing, independent());
    expect(await isPublic(db, listing)).toBe(false);

    const second = await newListing(db);
    const { cookie } = await signedInAccount(db, "reporter");
    await post(db, second, { clientIp: "203.0.113.50", cookie });
    expect(await isPublic(db, second)).toBe(true);
    await post(db, second, independent());
    expect(await isPublic(db, second)).toBe(false);
    const row = await db
      .selectFrom("reports")
      .selectAll()
      .where("listingId", "=", second.id)
      .orderBy("createdAt")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ originGroup: "203.0.113.0/24", visitorKey: null });
    expect(row.reporterUserId).not.toBeNull();
  });

  it("after a moderator restores it, the same wave cannot hide it again; new reporters count only after the cool-down", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const wave = [independent(), independent(), independent()];
    for (const sender of wave) await post(db, listing, sender);
    expect(await isPublic(db, listing)).toBe(false);

    const restoredAt = new Date();
    expect(await restoreListing(db, moderator, listing.id, "Checked: the place exists", restoredAt)).toEqual({
      ok: true,
    });
    // The same three at once, and again two days later: their complaint was reviewed.
    for (const sender of wave) expect((await post(db, listing, sender)).status).toBe(200);
    expect(await isPublic(db, listing)).toBe(true);
    setClock(new Date(restoredAt.getTime() + 48 * 3600_000).toISOString());
    for (const sender of wave) expect((await post(db, listing, sender)).status).toBe(200);
    expect(await isPublic(db, listing)).toBe(true);

    // New people within the cool-down (an hour after the restore) do not count, then or later.
    setClock(new Date(restoredAt.getTime() + 3600_000).toISOString());
    const early = [independent(), independent(), independent()];
    for (const sender of early) await post(db, listing, sender);
    expect(await isPublic(db, listing)).toBe(true);

    // New people after the cool-down do.
    setClock(new Date(restoredAt.getTime() + 49 * 3600_000).toISOString());
    await post(db, listing, independent());
    await post(db, listing, independent());
    expect(await isPublic(db, listing)).toBe(true);
    await post(db, listing, independent());
    expect(await isPublic(db, listing)).toBe(false);
  });

  it("caps reports per listing per network: the 4th from one /24 in a day is refused with a clear message", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const start = Date.parse("2030-04-01T08:00:00Z");
    for (let i = 0; i < REPORTS_PER_ORIGIN_PER_LISTING; i++) {
      setClock(new Date(start + i * 3600_000).toISOString());
      expect((await post(db, listing, { clientIp: `198.51.100.${20 + i}` })).status).toBe(200);
    }
    setClock(new Date(start + 5 * 3600_000).toISOString());
    const refused = await post(db, listing, { clientIp: "198.51.100.99", cookie: signedVisitor() });
    expect(refused.status).toBe(429);
    // The network may report it again when its first report is a day old: 19 hours from now
    // (the test clock runs on from each setClock, so a second either way of rounding up).
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThanOrEqual(19 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(19 * 3600 + 1);
    expect(t(refused.body.message as MessageKey)).toBe(
      "This listing has already been reported several times from your network today. Moderators will review those reports.",
    );
    expect(await reportCount(db, listing)).toBe(REPORTS_PER_ORIGIN_PER_LISTING);
    // Another network, or the same network on another listing, is not affected.
    expect((await post(db, listing, { clientIp: "198.51.101.1" })).status).toBe(200);
    expect((await post(db, await newListing(db), { clientIp: "198.51.100.99" })).status).toBe(200);
  });

  it("keys the report rate limit by /24 and /64: addresses of one network share it", async () => {
    const { db } = ctx();
    const limiter = createRateLimiter(createMemoryStore(), { reportIp: { max: 2, windowSeconds: 3600 } });
    const env = { REPORT_AUTO_HIDE: "50" };
    const [a, b, c] = [await newListing(db), await newListing(db), await newListing(db)];
    expect((await post(db, a, { clientIp: "203.0.113.1" }, { limiter, env })).status).toBe(200);
    expect((await post(db, b, { clientIp: "203.0.113.2" }, { limiter, env })).status).toBe(200);
    expect((await post(db, c, { clientIp: "203.0.113.3" }, { limiter, env })).status).toBe(429);
    expect((await post(db, c, { clientIp: "::ffff:203.0.113.4" }, { limiter, env })).status).toBe(429);
    expect((await post(db, c, { clientIp: "203.0.112.3" }, { limiter, env })).status).toBe(200);

    expect((await post(db, a, { clientIp: "2001:db8:9:1::1" }, { limiter, env })).status).toBe(200);
    expect((await post(db, b, { clientIp: "2001:db8:9:1:ffff::2" }, { limiter, env })).status).toBe(200);
    expect((await post(db, c, { clientIp: "2001:db8:9:1::abcd" }, { limiter, env })).status).toBe(429);
    expect((await post(db, c, { clientIp: "2001:db8:9:2::1" }, { limiter, env })).status).toBe(200);
  });

  it("moderators get one email for five reports within an hour, then one digest of the rest after the hour", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const start = new Date("2030-03-01T08:00:00Z");
    setClock(start.toISOString());
    const many = { REPORT_AUTO_HIDE: "50" };
    for (let i = 0; i < 5; i++) {
      setClock(new Date(start.getTime() + i * 10 * 60_000).toISOString());
      expect(
        (await post(db, listing, independent(), { env: many, fields: { reporterName: `Reporter ${i}` } })).status,
      ).toBe(200);
    }
    let mail = await moderatorMail(db, listing);
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toContain("Reported by: Reporter 0");

    const env = parseEnv({ SITE_URL: TEST_SITE, NODE_ENV: "test", SUPPORT_EMAIL: "mods@bodima.test" });
    const job = {
      db,
      env,
      storage: undefined as never,
      log: pino({ level: "silent" }),
      mail: () => undefined as never,
    };
    // Within the hour: nothing yet. (Other tests' listings share this database, so
    // the job's counts include theirs; what this listing's moderators got is checked.)
    setClock(new Date(start.getTime() + 50 * 60_000).toISOString());
    await runJob("report-digest", job);
    expect(await moderatorMail(db, listing)).toHaveLength(1);

    setClock(new Date(start.getTime() + 61 * 60_000).toISOString());
    expect(await runJob("report-digest", job)).toMatchObject({
      digests: expect.any(Number),
      reports: expect.any(Number),
    });
    mail = await moderatorMail(db, listing);
    expect(mail).toHaveLength(2);
    expect(mail[1].subject).toBe(`[Bodima] 4 more reports on ad #${listing.id}`);
    for (const n of [1, 2, 3, 4]) expect(mail[1].text).toContain(`Reporter ${n}`);
    expect(mail[1].text).not.toContain("Reporter 0");
    expect(mail[1].text).toContain(`${TEST_SITE}/admin/reports/`);
    // Nothing left to send.
    setClock(new Date(start.getTime() + 3 * 3600_000).toISOString());
    await runJob("report-digest", job);
    expect(await moderatorMail(db, listing)).toHaveLength(2);
    // The next report, more than an hour after the digest, is emailed at once.
    await post(db, listing, independent(), { env: many, fields: { reporterName: "Reporter 5" } });
    expect(await moderatorMail(db, listing)).toHaveLength(3);
  });

  it("tells the owner by email that the listing was hidden pending review, and why, without who reported", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const reasons = ["fake-listing", "safety-concerns", "fake-listing"];
    for (const reason of reasons)
      await post(db, listing, independent(), {
        fields: { reason, reporterName: "Secret Reporter", reporterEmail: "secret.reporter@example.com" },
      });
    expect(await isPublic(db, listing)).toBe(false);
    const mails = await db.selectFrom("outbox").selectAll().where("to", "=", listing.ownerEmail).execute();
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.html).toBeNull();
    expect(mail.subject).toBe(`[Bodima] Your listing ad #${listing.id} is hidden pending review`);
    expect(mail.text).toContain(`Your listing "${listing.title}" (ad #${listing.id})`);
    expect(mail.text).toContain("hidden automatically, pending review by a moderator");
    expect(mail.text).toContain("Why: it was reported as Fake Listing, Safety Concerns.");
    expect(mail.text).not.toContain("Secret Reporter");
    expect(mail.text).not.toContain("secret.reporter@example.com");
    expect(mail.text).not.toContain("0712345678");
  });

  it("the model counts a report only with a browser or account behind it", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const input = {
      listingId: String(listing.id),
      reporterName: "A",
      reporterEmail: "a@example.com",
      reporterContact: "0770000000",
      reason: "spam" as const,
      description: "",
    };
    const bare = await createReport(db, input, {
      autoHideAt: 1,
      reporter: { originGroup: "192.0.2.0/24", visitorKey: null, userId: null },
    });
    expect(bare).toMatchObject({ ok: true, autoHidden: false, weight: 0 });
    const browser = await createReport(db, input, {
      autoHideAt: 1,
      reporter: { originGroup: "192.0.3.0/24", visitorKey: "k", userId: null },
    });
    expect(browser).toMatchObject({ ok: true, autoHidden: true, weight: 1, reporterCount: 1 });
  });
});
