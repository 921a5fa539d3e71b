import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { type MessageKey, t } from "../../app/i18n";
import { createMemoryStore, createRateLimiter } from "../../app/limits/rate-limit.server";
import { insertListing } from "../../app/models/listing.server";
import { searchListings } from "../../app/models/listing-search.server";
import { createReport } from "../../app/models/report.server";
import { action, loader, meta } from "../../app/routes/listing.report";
import { readReason, reasonText } from "../../app/schemas/message";
import { signVisitorId } from "../../app/security/visitor-id.server";
import { insertTestOwner, listingInput, reportInput } from "../factories";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { describeEachDatabase } from "../test-db";
import "virtual:catalogue/report";

type ActionArgs = Parameters<typeof action>[0];
type LoaderArgs = Parameters<typeof loader>[0];
type Listing = { id: number; slug: string; title: string };

let seq = 0;
const unique = () => `${Date.now().toString(36)}${++seq}`;

async function newListing(db: DB, title = `Room ${unique()}`): Promise<Listing> {
  const owner = await insertTestOwner(db, `report-owner-${unique()}`);
  const { id, slug } = await insertListing(db, owner, listingInput({ title }));
  return { id, slug, title };
}

type PostOptions = {
  env?: Record<string, string>;
  clientIp?: string;
  origin?: string | null;
  limiter?: ReturnType<typeof createRateLimiter>;
  cookie?: string;
};

/**
 * An independent reporter (ADR 017): their own network and their own browser,
 * holding a visitor id the site signed (testContext's secret).
 */
let networks = 0;
function independent(): Pick<PostOptions, "clientIp" | "cookie"> {
  const n = ++networks;
  return {
    clientIp: `10.${n >> 8}.${n & 255}.7`,
    cookie: `bodima_vid=${signVisitorId("y".repeat(64), randomBytes(16).toString("hex"))}`,
  };
}

async function post(db: DB, slug: string, fields: Record<string, string>, options: PostOptions = {}) {
  const headers: Record<string, string> = {};
  if (options.origin !== null) headers.Origin = options.origin ?? TEST_SITE;
  if (options.cookie) headers.Cookie = options.cookie;
  const request = new Request(`${TEST_SITE}/listing/${slug}/report`, {
    method: "POST",
    headers,
    body: new URLSearchParams(fields),
  });
  const context = testContext({ db, env: options.env, clientIp: options.clientIp, limiter: options.limiter });
  const result = await action({ request, params: { slug }, context } as unknown as ActionArgs);
  const headersOut =
    result && typeof result === "object" && "init" in result
      ? new Headers((result as { init: ResponseInit | null }).init?.headers)
      : new Headers();
  return { ...unwrapResult(result), headers: headersOut };
}

function validReport(listing: Listing, overrides: Record<string, string> = {}) {
  return {
    listingId: String(listing.id),
    reporterName: "Ruwan Jayasinghe",
    reporterEmail: `ruwan-${unique()}@example.com`,
    reporterContact: "0712345678",
    reason: "wrong-information",
    description: "The price on the ad is not what the owner asked for.",
    website: "",
    ...overrides,
  };
}

async function reportsOn(db: DB, listingId: number) {
  return db.selectFrom("reports").selectAll().where("listingId", "=", listingId).orderBy("createdAt").execute();
}

async function listingRow(db: DB, id: number) {
  return db.selectFrom("listings").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/** A reason hidden by reports: stored as a key and its values (ADR 028), shown in English as before. */
function autoHideReason(stored: string | null) {
  return { stored: JSON.parse(stored ?? "null"), shown: reasonText(t, readReason(stored ?? "", true)) };
}

async function mailAbout(db: DB, listingId: number) {
  const rows = await db.selectFrom("outbox").selectAll().where("kind", "=", "report").orderBy("to").execute();
  return rows.filter((row) => row.subject.includes(`ad #${listingId}:`));
}

const messages = (body: Record<string, unknown>) =>
  Object.values(body.errors as Record<string, MessageKey>).map((key) => t(key));

describeEachDatabase("reporting a listing", (ctx) => {
  it("lists the spec's message for every missing field, in order, and stores nothing", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const { status, body } = await post(db, listing.slug, {
      listingId: "",
      reporterName: " ",
      reporterEmail: "",
      reporterContact: "",
      reason: "",
      description: "",
    });
    expect(status).toBe(400);
    expect(body.status).toBe("invalid");
    expect(messages(body)).toEqual([
      "Listing ID is required",
      "Reporter name is required",
      "Reporter email is required",
      "Reporter contact is required",
      "Report reason is required",
    ]);
    expect(await reportsOn(db, listing.id)).toHaveLength(0);
  });

  it("refuses a malformed email and an unknown reason, keeping what was typed", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const sent = validReport(listing, { reporterEmail: "ruwan@nowhere", reason: "boring" });
    const { status, body } = await post(db, listing.slug, sent);
    expect(status).toBe(400);
    expect(messages(body)).toEqual(["Invalid email format", "Report reason is required"]);
    expect(body.values).toMatchObject({
      reporterEmail: "ruwan@nowhere",
      reason: "boring",
      description: sent.description,
    });
  });

  it("refuses over-long fields with a clear message", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const { status, body } = await post(
      db,
      listing.slug,
      validReport(listing, {
        reporterName: "N".repeat(101),
        reporterEmail: `${"e".repeat(250)}@example.com`,
        reporterContact: "0".repeat(101),
        description: "d".repeat(2001),
      }),
    );
    expect(status).toBe(400);
    expect(messages(body)).toEqual([
      "Reporter name is too long: use at most 100 characters",
      "Reporter email is too long: use at most 254 characters",
      "Reporter contact is too long: use at most 100 characters",
      "Details are too long: use at most 2000 characters",
    ]);
    expect(await reportsOn(db, listing.id)).toHaveLength(0);
  });

  it("stores a report as pending and emails support (no moderators yet) with a link to review it", async () => {
    const { db } = ctx();
    const listing = await newListing(db, `Annex near campus ${unique()}`);
    const sent = validReport(listing, {
      reporterName: "Ruwan <b>J</b>",
      reason: "safety-concerns",
      description: "Asked for a deposit <script>alert(1)</script> before any visit.\nTwice.",
    });
    const { status, body } = await post(db, listing.slug, sent, { env: { SUPPORT_EMAIL: "mods@example.lk" } });
    expect(status).toBe(200);
    expect(body).toEqual({ status: "sent", listingPath: `/listing/${listing.slug}` });

    const [report] = await reportsOn(db, listing.id);
    expect(report).toMatchObject({
      listingId: listing.id,
      reporterName: sent.reporterName,
      reporterEmail: sent.reporterEmail,
      reporterContact: "0712345678",
      reason: "safety-concerns",
      description: sent.description,
      status: "pending",
    });
    expect((await listingRow(db, listing.id)).status).toBe("active");

    const mails = await db.selectFrom("outbox").selectAll().where("to", "=", "mods@example.lk").execute();
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.subject).toBe(`[Bodima] Report on ad #${listing.id}: Safety Concerns`);
    expect(mail.html).toBeNull();
    expect(mail.replyTo).toBe(sent.reporterEmail);
    expect(mail.text).toContain(`Listing: ${listing.title} (ad #${listing.id})`);
    expect(mail.text).toContain(`${TEST_SITE}/listing/${listing.slug}`);
    expect(mail.text).toContain("Reason: Safety Concerns");
    // Plain text, exactly as typed: nothing is interpreted as HTML.
    expect(mail.text).toContain(`Details: ${sent.description}`);
    expect(mail.text).toContain("Reported by: Ruwan <b>J</b>");
    expect(mail.text).toContain(`Email: ${sent.reporterEmail}`);
    expect(mail.text).toContain("Contact: 0712345678");
    expect(mail.text).toContain(`Review it here: ${TEST_SITE}/admin/reports/${report.id}`);
    expect(mail.text).not.toContain("hidden automatically");
  });

  it("emails every active moderator, not suspended ones or owners", async () => {
    const { db } = ctx();
    const tag = unique();
    const now = new Date().toISOString();
    const user = (email: string, role: string, status: string) => ({
      id: `u-${email}`,
      name: "Mod",
      email,
      emailVerified: 1,
      image: null,
      phone: "0770000000",
      role,
      status,
      createdAt: now,
      updatedAt: now,
    });
    await db
      .insertInto("users")
      .values([
        user(`a-mod-${tag}@example.com`, "moderator", "active"),
        user(`b-mod-${tag}@example.com`, "moderator", "active"),
        user(`c-mod-${tag}@example.com`, "moderator", "suspended"),
        user(`d-owner-${tag}@example.com`, "owner", "active"),
      ])
      .execute();
    try {
      const listing = await newListing(db);
      const { status } = await post(db, listing.slug, validReport(listing, { description: "" }), {
        env: { SUPPORT_EMAIL: "nobody-reads@example.lk" },
      });
      expect(status).toBe(200);
      const mails = await mailAbout(db, listing.id);
      expect(mails.map((m) => m.to)).toEqual([`a-mod-${tag}@example.com`, `b-mod-${tag}@example.com`]);
      expect(mails[0].text).toContain("Details: (none given)");
      expect((await reportsOn(db, listing.id))[0].description).toBeNull();
    } finally {
      // Other tests expect mail to go to support when there is no moderator.
      await db.deleteFrom("users").where("email", "like", `%-${tag}@example.com`).execute();
    }
  });

  it("pretends to succeed when the honeypot is filled, but stores and sends nothing", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const { status, body } = await post(db, listing.slug, validReport(listing, { website: "http://spam.example" }));
    expect(status).toBe(200);
    expect(body.status).toBe("sent");
    expect(await reportsOn(db, listing.id)).toHaveLength(0);
    expect(await mailAbout(db, listing.id)).toHaveLength(0);
  });

  it("refuses a request from a foreign origin (or none) with 403", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const foreign = await post(db, listing.slug, validReport(listing), { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ status: "refused", message: "report.errors.origin" });
    const missing = await post(db, listing.slug, validReport(listing), { origin: null });
    expect(missing.status).toBe(403);
    expect(await reportsOn(db, listing.id)).toHaveLength(0);
  });

  it("answers the 11th report from one network within an hour with 429 and Retry-After", async () => {
    const { db } = ctx();
    // Spread over listings: one network may file only 3 reports a day on one listing (ADR 017).
    const listings = [await newListing(db), await newListing(db), await newListing(db), await newListing(db)];
    const listing = listings[3];
    const limiter = createRateLimiter(createMemoryStore());
    const env = { REPORT_AUTO_HIDE: "50" };
    for (let i = 0; i < 10; i++) {
      const target = listings[i % 4];
      // Addresses of one /24 share the limit (ADR 017: the raw IP was the key).
      const { status } = await post(db, target.slug, validReport(target), {
        env,
        limiter,
        clientIp: `203.0.113.${7 + (i % 2)}`,
      });
      expect(status).toBe(200);
    }
    const refused = await post(db, listing.slug, validReport(listing), { env, limiter, clientIp: "203.0.113.200" });
    expect(refused.status).toBe(429);
    expect(t(refused.body.message as MessageKey)).toBe("Too many reports from your network. Please try again later.");
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await reportsOn(db, listing.id)).toHaveLength(2);

    const otherNetwork = await post(db, listing.slug, validReport(listing), { env, limiter, clientIp: "203.0.114.8" });
    expect(otherNetwork.status).toBe(200);
  });

  it("hides a listing automatically at the 3rd independent reporter, with an audit entry", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    for (const email of ["one@example.com", "two@example.com"]) {
      expect((await post(db, listing.slug, validReport(listing, { reporterEmail: email }), independent())).status).toBe(
        200,
      );
      expect((await listingRow(db, listing.id)).status).toBe("active");
    }
    expect(
      (await post(db, listing.slug, validReport(listing, { reporterEmail: "three@example.com" }), independent()))
        .status,
    ).toBe(200);

    const row = await listingRow(db, listing.id);
    expect(row).toMatchObject({ status: "hidden", hiddenBy: "reports" });
    expect(autoHideReason(row.hiddenReason)).toEqual({
      stored: { key: "report.autoHide.reason", values: { count: 3 } },
      shown: "Hidden automatically after reports from 3 people, until a moderator reviews it.",
    });
    const audit = await db.selectFrom("audit_log").selectAll().where("targetId", "=", String(listing.id)).execute();
    expect(audit).toEqual([
      expect.objectContaining({
        actorId: null,
        action: "listing.auto-hide",
        targetType: "listing",
        reason: row.hiddenReason,
      }),
    ]);
    // Moderators: one email at once for the listing's first report; the rest wait for the hourly digest (ADR 017).
    expect(await mailAbout(db, listing.id)).toHaveLength(1);

    // Hidden: gone from search and no longer reportable.
    const found = await searchListings(db, { search: listing.title }, { page: 1, limit: 10 });
    expect(found.ads.map((ad) => ad.id)).not.toContain(String(listing.id));
    const again = await post(
      db,
      listing.slug,
      validReport(listing, { reporterEmail: "four@example.com" }),
      independent(),
    );
    expect(again.status).toBe(404);
    expect(t(again.body.message as MessageKey)).toBe("Listing not found");
    expect(await reportsOn(db, listing.id)).toHaveLength(3);
  });

  it("counts one person once: 3 reports from one email (any case) do not hide the listing", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    for (const email of ["same@example.com", "SAME@example.com", "Same@Example.com"]) {
      expect((await post(db, listing.slug, validReport(listing, { reporterEmail: email }))).status).toBe(200);
    }
    expect(await reportsOn(db, listing.id)).toHaveLength(3);
    expect((await listingRow(db, listing.id)).status).toBe("active");
    const audit = await db.selectFrom("audit_log").selectAll().where("targetId", "=", String(listing.id)).execute();
    expect(audit).toHaveLength(0);
  });

  it("counts only pending reports towards hiding", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    for (const email of ["p1@example.com", "p2@example.com"])
      await post(db, listing.slug, validReport(listing, { reporterEmail: email }));
    await db.updateTable("reports").set({ status: "dismissed" }).where("listingId", "=", listing.id).execute();
    await post(db, listing.slug, validReport(listing, { reporterEmail: "p3@example.com" }));
    expect((await listingRow(db, listing.id)).status).toBe("active");
  });

  it("follows REPORT_AUTO_HIDE", async () => {
    const { db } = ctx();
    const env = { REPORT_AUTO_HIDE: "2" };
    const listing = await newListing(db);
    await post(db, listing.slug, validReport(listing, { reporterEmail: "x1@example.com" }), { env, ...independent() });
    expect((await listingRow(db, listing.id)).status).toBe("active");
    await post(db, listing.slug, validReport(listing, { reporterEmail: "x2@example.com" }), { env, ...independent() });
    const hidden = await listingRow(db, listing.id);
    expect(hidden.status).toBe("hidden");
    expect(autoHideReason(hidden.hiddenReason).shown).toBe(
      "Hidden automatically after reports from 2 people, until a moderator reviews it.",
    );

    const patient = await newListing(db);
    const higher = { REPORT_AUTO_HIDE: "4" };
    for (const email of ["y1@example.com", "y2@example.com", "y3@example.com"]) {
      await post(db, patient.slug, validReport(patient, { reporterEmail: email }), { env: higher, ...independent() });
    }
    expect((await listingRow(db, patient.id)).status).toBe("active");
  });

  it("hides a listing at the 2nd independent reporter when one says it asked for money before a viewing (ADR 077)", async () => {
    const { db } = ctx();
    const money = (listing: Listing, email: string) =>
      validReport(listing, { reporterEmail: email, reason: "money-before-viewing" });

    // Two reporters with other reasons: not yet (weight 2 of 3).
    const control = await newListing(db);
    for (const email of ["c1@example.com", "c2@example.com"])
      await post(db, control.slug, validReport(control, { reporterEmail: email }), independent());
    expect((await listingRow(db, control.id)).status).toBe("active");

    // One person alone never hides it, however often they choose the reason.
    const listing = await newListing(db);
    const first = independent();
    for (const email of ["m1@example.com", "m1b@example.com"])
      expect((await post(db, listing.slug, money(listing, email), first)).status).toBe(200);
    expect((await listingRow(db, listing.id)).status).toBe("active");

    // A second, independent person (any reason) hides it.
    await post(db, listing.slug, validReport(listing, { reporterEmail: "m2@example.com" }), independent());
    const hidden = await listingRow(db, listing.id);
    expect(hidden).toMatchObject({ status: "hidden", hiddenBy: "reports" });
    expect(autoHideReason(hidden.hiddenReason).shown).toBe(
      "Hidden automatically after reports from 2 people, until a moderator reviews it.",
    );
  });

  it("never lets one signed-in reporter hide a listing by choosing 'money before a viewing'", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const account = await insertTestOwner(db, `money-reporter-${unique()}`);
    const input = reportInput(listing.id, { reason: "money-before-viewing", reporterEmail: account.email });
    const created = await createReport(db, input, {
      autoHideAt: 3,
      reporter: { originGroup: "192.0.2.0/24", visitorKey: null, userId: account.id },
    });
    // Signed in (2) plus the reason's extra (1) would reach 3, but one person is one person.
    expect(created).toMatchObject({ ok: true, autoHidden: false, reporterCount: 1, weight: 2 });
    expect((await listingRow(db, listing.id)).status).toBe("active");
  });

  it("hides once when several people report at the same moment", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        post(db, listing.slug, validReport(listing, { reporterEmail: `rush${n}@example.com` }), independent()),
      ),
    );
    // Each is stored or (once hidden) refused as not found; never an error.
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 404, 404]);
    expect((await listingRow(db, listing.id)).status).toBe("hidden");
    const audit = await db.selectFrom("audit_log").selectAll().where("targetId", "=", String(listing.id)).execute();
    expect(audit).toHaveLength(1);
  });

  it("does not take reports on a listing that is not public, or that does not exist", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    await db.updateTable("listings").set({ status: "pending" }).where("id", "=", listing.id).execute();
    const pending = await post(db, listing.slug, validReport(listing));
    expect(pending.status).toBe(404);
    for (const id of ["99999999", "999999999999", "0"]) {
      const missing = await post(db, `no-such-room-${id}`, { ...validReport(listing), listingId: id });
      expect(missing.status, id).toBe(404);
    }
    expect(await reportsOn(db, listing.id)).toHaveLength(0);

    const expired = await newListing(db);
    await db.updateTable("listings").set({ status: "expired" }).where("id", "=", expired.id).execute();
    expect((await post(db, expired.slug, validReport(expired))).status).toBe(200);
  });

  it("answers the report that hides a listing with its success page (200), not with 404", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const reporter = independent();
    const context = testContext({ db, env: { REPORT_AUTO_HIDE: "1" }, clientIp: reporter.clientIp });
    const args = (request: Request) =>
      ({ request, params: { slug: listing.slug }, context }) as unknown as ActionArgs & LoaderArgs;
    const url = `${TEST_SITE}/listing/${listing.slug}/report`;
    const body = new URLSearchParams(validReport(listing));
    const sent = unwrapResult(
      await action(
        args(new Request(url, { method: "POST", headers: { Origin: TEST_SITE, Cookie: reporter.cookie! }, body })),
      ),
    );
    expect(sent.body.status).toBe("sent");
    expect((await listingRow(db, listing.id)).status).toBe("hidden");
    // React Router runs the page's loader after the action, with the same context.
    const after = unwrapResult(await loader(args(new Request(url))));
    expect(after).toMatchObject({ status: 200, body: { listing: null } });
    const later = unwrapResult(await loader({ ...args(new Request(url)), context: testContext({ db }) }));
    expect(later.status).toBe(404);
  });

  it("serves the report page for a public listing (noindex), and 404 once it is hidden", async () => {
    const { db } = ctx();
    const listing = await newListing(db);
    const load = (slug: string) =>
      loader({
        request: new Request(`${TEST_SITE}/listing/${slug}/report`),
        params: { slug },
        context: testContext({ db }),
      } as unknown as LoaderArgs);
    const page = unwrapResult(await load(listing.slug));
    expect(page.status).toBe(200);
    expect(page.body.listing).toEqual({ adNumber: String(listing.id), slug: listing.slug, title: listing.title });
    const tags = meta({ loaderData: page.body } as unknown as Parameters<typeof meta>[0]);
    expect(tags).toContainEqual({ name: "robots", content: "noindex" });

    await expect(load(`old-title-${listing.id}`)).rejects.toMatchObject({ status: 301 });

    await db.updateTable("listings").set({ status: "hidden" }).where("id", "=", listing.id).execute();
    const gone = unwrapResult(await load(listing.slug));
    expect(gone.status).toBe(404);
    expect(gone.body.listing).toBeNull();
  });
});
