import { expect, it } from "vitest";
import { getAd, listAds } from "../../app/api/listings.server";
import { buildSitemap } from "../../app/api/sitemap.server";
import { getAuth, getSessionUser } from "../../app/auth/auth.server";
import type { DB } from "../../app/db/db.server";
import { friendlyError } from "../../app/lib/error-messages";
import { createOwnerAccount } from "../../app/models/account.server";
import { listAuditLog } from "../../app/models/audit-log.server";
import { findListingBySlug, insertListing } from "../../app/models/listing.server";
import { hideListing, restoreListing } from "../../app/models/listing-moderation.server";
import { searchListings } from "../../app/models/listing-search.server";
import { listOwnerListings } from "../../app/models/owner-listing-reads.server";
import { closeReport, listReportQueue } from "../../app/models/report-review.server";
import { reinstateUser, suspendUser } from "../../app/models/user-moderation.server";
import { loader as adminLoader } from "../../app/routes/admin";
import { loader as adminIndexLoader } from "../../app/routes/admin._index";
import { loader as auditLoader } from "../../app/routes/admin.audit";
import { action as reportAction, loader as reportLoader } from "../../app/routes/admin.reports.$id";
import { loader as listingPageLoader } from "../../app/routes/listing";
import { requestContext } from "../../app/services.server";
import { insertTestOwner, listingInput } from "../factories";
import { signedInAccount, TEST_PASSWORD } from "../owner-fixtures";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { describeEachDatabase } from "../test-db";

const uid = (tag: string) => `${tag}-${crypto.randomUUID()}`;

async function insertReport(
  db: DB,
  listingId: number,
  overrides: Partial<{ reason: string; status: string; email: string; createdAt: string }> = {},
): Promise<string> {
  const id = crypto.randomUUID();
  const at = overrides.createdAt ?? new Date().toISOString();
  await db
    .insertInto("reports")
    .values({
      id,
      listingId,
      reporterName: "Reporter",
      reporterEmail: overrides.email ?? `${uid("r")}@example.com`,
      reporterContact: "0770000000",
      reason: overrides.reason ?? "spam",
      description: "Looks like spam.",
      status: overrides.status ?? "pending",
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  return id;
}

async function auditRows(db: DB, targetId: string | number) {
  return db.selectFrom("audit_log").selectAll().where("targetId", "=", String(targetId)).orderBy("createdAt").execute();
}

async function listingRow(db: DB, id: number) {
  return db
    .selectFrom("listings")
    .select(["status", "hiddenBy", "hiddenReason"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

/** A real account signed in through better-auth (tests/owner-fixtures.ts), flattened. */
async function signedIn(db: DB, role: "owner" | "moderator" = "owner") {
  const { owner, cookie } = await signedInAccount(db, role, { role });
  return { ...owner, cookie };
}

function get(path: string, cookie?: string) {
  return new Request(`${TEST_SITE}${path}`, { headers: cookie ? { cookie } : {} });
}

function post(path: string, fields: Record<string, string>, cookie?: string, origin = TEST_SITE) {
  const headers: Record<string, string> = { origin, "content-type": "application/x-www-form-urlencoded" };
  if (cookie) headers.cookie = cookie;
  return new Request(`${TEST_SITE}${path}`, { method: "POST", headers, body: new URLSearchParams(fields) });
}

type Args = { request: Request; params: Record<string, string>; context: ReturnType<typeof testContext> };
const call = <T>(fn: (args: never) => T, args: Args) =>
  Promise.resolve(fn(args as never)).catch((thrown: unknown) => thrown);

describeEachDatabase("moderation", (ctx) => {
  const moderator = () => ({ id: uid("mod"), email: "mod@example.com" });

  it("groups the queue per listing with counts, pending first, then newest; filters and pages", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, uid("q"));
    const old = await insertListing(db, owner, listingInput({ title: "Old pending" }));
    const fresh = await insertListing(db, owner, listingInput({ title: "Fresh reviewed" }));
    await insertReport(db, old.id, { reason: "spam", createdAt: "2026-01-01T00:00:00.000Z" });
    await insertReport(db, old.id, {
      reason: "fake-listing",
      createdAt: "2026-01-02T00:00:00.000Z",
      status: "dismissed",
    });
    await insertReport(db, fresh.id, { reason: "spam", createdAt: "2026-03-01T00:00:00.000Z", status: "reviewed" });

    const all = await listReportQueue(db, {}, { page: 1, limit: 20 });
    const mine = all.groups.filter((g) => [old.id, fresh.id].includes(g.listing.id));
    expect(mine.map((g) => g.listing.title)).toEqual(["Old pending", "Fresh reviewed"]);
    expect(mine[0]).toMatchObject({ count: 2, pending: 1 });
    expect(mine[0].reports.map((r) => r.reason)).toEqual(["fake-listing", "spam"]);
    expect(mine[1]).toMatchObject({ count: 1, pending: 0 });

    const spamReviewed = await listReportQueue(db, { status: "reviewed", reason: "spam" }, { page: 1, limit: 20 });
    expect(spamReviewed.groups.map((g) => g.listing.id)).toContain(fresh.id);
    expect(spamReviewed.groups.map((g) => g.listing.id)).not.toContain(old.id);

    const firstPage = await listReportQueue(db, {}, { page: 1, limit: 1 });
    expect(firstPage.groups).toHaveLength(1);
    expect(firstPage.pagination.totalPages).toBe(all.pagination.total);
  });

  it("dismisses and reviews a pending report, each with its audit row; a closed report is a conflict", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, uid("d"));
    const listing = await insertListing(db, owner, listingInput());
    const a = await insertReport(db, listing.id);
    const b = await insertReport(db, listing.id);
    const actor = moderator();

    expect(await closeReport(db, actor, a, "dismissed", "Not a problem")).toEqual({ ok: true });
    expect(await closeReport(db, actor, b, "reviewed", null)).toEqual({ ok: true });
    expect(await closeReport(db, actor, a, "reviewed", null)).toEqual({ ok: false, code: "moderation.conflict" });
    expect(await closeReport(db, actor, crypto.randomUUID(), "reviewed", null)).toEqual({
      ok: false,
      code: "moderation.not_found",
    });

    const statuses = await db
      .selectFrom("reports")
      .select(["id", "status"])
      .where("listingId", "=", listing.id)
      .execute();
    expect(Object.fromEntries(statuses.map((r) => [r.id, r.status]))).toEqual({ [a]: "dismissed", [b]: "reviewed" });
    expect(await auditRows(db, a)).toEqual([
      expect.objectContaining({
        actorId: actor.id,
        actorEmail: actor.email,
        action: "report.dismiss",
        targetType: "report",
        reason: "Not a problem",
      }),
    ]);
    expect(await auditRows(db, b)).toEqual([expect.objectContaining({ action: "report.review", reason: null })]);
  });

  it("hides a listing from every public view; its owner sees why; restoring brings it back", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, uid("h"));
    const word = `zq${crypto.randomUUID().slice(0, 8)}`;
    const listing = await insertListing(db, owner, listingInput({ title: `Hidden room ${word}` }));
    const report = await insertReport(db, listing.id);
    const actor = moderator();

    expect(await hideListing(db, actor, listing.id, "Photos are of another house")).toEqual({ ok: true });
    expect(await listingRow(db, listing.id)).toEqual({
      status: "hidden",
      hiddenBy: "moderator",
      hiddenReason: "Photos are of another house",
    });
    expect(
      (await db.selectFrom("reports").select("status").where("id", "=", report).executeTakeFirstOrThrow()).status,
    ).toBe("reviewed");
    expect(await auditRows(db, listing.id)).toEqual([
      expect.objectContaining({
        action: "listing.hide",
        targetType: "listing",
        actorEmail: actor.email,
        reason: "Photos are of another house",
      }),
    ]);
    expect(await hideListing(db, actor, listing.id, "Again")).toEqual({ ok: false, code: "moderation.conflict" });

    // Gone from search, the list API, the single API, the sitemap and its page.
    expect((await searchListings(db, { search: word }, { page: 1, limit: 20 })).ads).toEqual([]);
    const api = await listAds(db, new URLSearchParams({ search: word }));
    expect(api.ok && api.body.ads).toEqual([]);
    expect((await getAd(db, String(listing.id))).status).toBe(404);
    expect((await getAd(db, listing.slug)).status).toBe(404);
    expect(await buildSitemap(db, TEST_SITE, null)).not.toContain(listing.slug);
    expect(await findListingBySlug(db, listing.slug)).toBeNull();
    const page = await listingPageLoader({
      request: get(`/listing/${listing.slug}`),
      params: { slug: listing.slug },
      context: testContext({ db }),
    } as never);
    expect(unwrapResult(page).status).toBe(404);

    const [mine] = await listOwnerListings(db, owner.id);
    expect(mine).toMatchObject({ status: "hidden", hiddenReason: { text: "Photos are of another house" } });

    expect(await restoreListing(db, actor, listing.id, "Owner sent proof")).toEqual({ ok: true });
    expect(await listingRow(db, listing.id)).toEqual({ status: "active", hiddenBy: null, hiddenReason: null });
    expect((await searchListings(db, { search: word }, { page: 1, limit: 20 })).ads.map((a) => a.id)).toEqual([
      String(listing.id),
    ]);
    expect(await buildSitemap(db, TEST_SITE, null)).toContain(listing.slug);
    expect((await auditRows(db, listing.id)).map((r) => r.action)).toEqual(["listing.hide", "listing.restore"]);
    expect(await restoreListing(db, actor, listing.id, null)).toEqual({ ok: false, code: "moderation.conflict" });
  });

  it("restoring an automatically hidden listing marks its pending reports reviewed", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, uid("auto"));
    const listing = await insertListing(db, owner, listingInput());
    const reports = await Promise.all([1, 2, 3].map(() => insertReport(db, listing.id)));
    await db
      .updateTable("listings")
      .set({ status: "hidden", hiddenBy: "reports", hiddenReason: "Reported" })
      .where("id", "=", listing.id)
      .execute();

    expect(await restoreListing(db, moderator(), listing.id, null)).toEqual({ ok: true });
    const statuses = await db.selectFrom("reports").select("status").where("id", "in", reports).execute();
    expect(statuses.map((r) => r.status)).toEqual(["reviewed", "reviewed", "reviewed"]);
  });

  it("suspends an owner: sessions end, sign-in refused, listings hidden; reinstating brings back only those", async () => {
    const { db } = ctx();
    const owner = await signedIn(db);
    const context = testContext({ db });
    expect(await getSessionUser(get("/dashboard", owner.cookie), context)).toMatchObject({ id: owner.id });
    const visible = await insertListing(db, owner, listingInput({ title: "Visible" }));
    const byModerator = await insertListing(db, owner, listingInput({ title: "Hidden before" }));
    const actor = moderator();
    await hideListing(db, actor, byModerator.id, "Spam");

    expect(await suspendUser(db, actor, owner.id, "Scam reports")).toEqual({ ok: true });
    expect(
      (await db.selectFrom("users").select("status").where("id", "=", owner.id).executeTakeFirstOrThrow()).status,
    ).toBe("suspended");
    expect(await db.selectFrom("sessions").select("id").where("userId", "=", owner.id).execute()).toEqual([]);
    expect(await getSessionUser(get("/dashboard", owner.cookie), context)).toBeNull();
    expect(await listingRow(db, visible.id)).toEqual({
      status: "hidden",
      hiddenBy: "suspension",
      hiddenReason: "Scam reports",
    });
    expect(await listingRow(db, byModerator.id)).toMatchObject({ hiddenBy: "moderator" });
    expect(await auditRows(db, owner.id)).toEqual([
      expect.objectContaining({ action: "user.suspend", targetType: "user", reason: "Scam reports" }),
    ]);

    const auth = getAuth(context.get(requestContext));
    const refused = await auth.api
      .signInEmail({
        body: { email: owner.email, password: TEST_PASSWORD },
        headers: new Headers({ origin: TEST_SITE }),
      })
      .catch((error: unknown) => error);
    expect(friendlyError(refused).key).toBe("accounts.errors.auth.user-disabled");
    expect(await db.selectFrom("sessions").select("id").where("userId", "=", owner.id).execute()).toEqual([]);
    // Its listings cannot come back one by one while the owner is suspended.
    expect(await restoreListing(db, actor, visible.id, null)).toEqual({
      ok: false,
      code: "moderation.owner_suspended",
    });
    expect(await suspendUser(db, actor, owner.id, "Again")).toEqual({ ok: false, code: "moderation.conflict" });

    expect(await reinstateUser(db, actor, owner.id, "Appeal accepted")).toEqual({ ok: true });
    expect(await listingRow(db, visible.id)).toEqual({ status: "active", hiddenBy: null, hiddenReason: null });
    expect(await listingRow(db, byModerator.id)).toEqual({
      status: "hidden",
      hiddenBy: "moderator",
      hiddenReason: "Spam",
    });
    expect((await auditRows(db, owner.id)).map((r) => r.action)).toEqual(["user.suspend", "user.reinstate"]);
    await expect(
      auth.api.signInEmail({
        body: { email: owner.email, password: TEST_PASSWORD },
        headers: new Headers({ origin: TEST_SITE }),
      }),
    ).resolves.toBeTruthy();
    expect(await reinstateUser(db, actor, owner.id, null)).toEqual({ ok: false, code: "moderation.conflict" });
  });

  it("a moderator cannot suspend themselves or another moderator", async () => {
    const { db } = ctx();
    const self = await createOwnerAccount(db, {
      name: "M",
      email: `${uid("m")}@example.lk`,
      phone: "",
      password: TEST_PASSWORD,
      role: "moderator",
    });
    const other = await createOwnerAccount(db, {
      name: "N",
      email: `${uid("n")}@example.lk`,
      phone: "",
      password: TEST_PASSWORD,
      role: "moderator",
    });
    const actor = { id: self.id, email: self.email };
    expect(await suspendUser(db, actor, self.id, "Oops")).toEqual({ ok: false, code: "moderation.own_account" });
    expect(await suspendUser(db, actor, other.id, "Oops")).toEqual({
      ok: false,
      code: "moderation.target_is_moderator",
    });
    expect(await suspendUser(db, actor, crypto.randomUUID(), "Oops")).toEqual({
      ok: false,
      code: "moderation.not_found",
    });
    const rows = await db.selectFrom("users").select("status").where("id", "in", [self.id, other.id]).execute();
    expect(rows.map((r) => r.status)).toEqual(["active", "active"]);
    expect(await auditRows(db, other.id)).toEqual([]);
  });

  it("lists the audit log newest first with what each action touched", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, uid("log"));
    const listing = await insertListing(db, owner, listingInput({ title: "Logged room" }));
    const actor = moderator();
    await hideListing(db, actor, listing.id, "Why", new Date("2030-01-01T00:00:00Z"));
    await restoreListing(db, actor, listing.id, null, new Date("2030-01-02T00:00:00Z"));
    const { entries, pagination } = await listAuditLog(db, { page: 1, limit: 2 });
    expect(entries.map((e) => [e.action, e.targetLabel])).toEqual([
      ["listing.restore", "Logged room"],
      ["listing.hide", "Logged room"],
    ]);
    expect(pagination.total).toBeGreaterThanOrEqual(2);
  });

  it("admin pages and actions: visitors go to log in, owners and suspended moderators are refused, nothing changes", async () => {
    const { db } = ctx();
    const owner = await signedIn(db);
    const suspendedModerator = await signedIn(db, "moderator");
    const listing = await insertListing(db, owner, listingInput());
    const report = await insertReport(db, listing.id);
    // Suspended directly (moderators cannot be suspended from /admin) with the session left in place.
    await db.updateTable("users").set({ status: "suspended" }).where("id", "=", suspendedModerator.id).execute();
    const context = testContext({ db });

    const pages: [(args: never) => unknown, string, Record<string, string>][] = [
      [adminLoader, "/admin", {}],
      [adminIndexLoader, "/admin?status=pending", {}],
      [auditLoader, "/admin/audit", {}],
      [reportLoader, `/admin/reports/${report}`, { id: report }],
    ];
    for (const [loader, path, params] of pages) {
      const visitor = (await call(loader, { request: get(path), params, context })) as Response;
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
      expect(unwrapResult(await call(loader, { request: get(path, owner.cookie), params, context })).status).toBe(403);
      expect(
        ((await call(loader, { request: get(path, suspendedModerator.cookie), params, context })) as Response).status,
      ).toBe(302);
    }

    for (const intent of ["dismiss", "review", "hide", "restore", "suspend", "reinstate"]) {
      const path = `/admin/reports/${report}`;
      const fields = { intent, reason: "Because" };
      for (const cookie of [undefined, suspendedModerator.cookie]) {
        const refused = (await call(reportAction, {
          request: post(path, fields, cookie),
          params: { id: report },
          context,
        })) as Response;
        expect(refused.status).toBe(302);
      }
      expect(
        unwrapResult(
          await call(reportAction, { request: post(path, fields, owner.cookie), params: { id: report }, context }),
        ).status,
      ).toBe(403);
    }
    expect(await listingRow(db, listing.id)).toMatchObject({ status: "active" });
    expect(
      (await db.selectFrom("reports").select("status").where("id", "=", report).executeTakeFirstOrThrow()).status,
    ).toBe("pending");
    expect(
      (await db.selectFrom("users").select("status").where("id", "=", owner.id).executeTakeFirstOrThrow()).status,
    ).toBe("active");
    expect(
      await db
        .selectFrom("audit_log")
        .select("id")
        .where("targetId", "in", [report, String(listing.id), owner.id])
        .execute(),
    ).toEqual([]);
  });

  it("a moderator acts through the report page: reason required, foreign origin refused, then hide with its audit row", async () => {
    const { db } = ctx();
    const mod = await signedIn(db, "moderator");
    const owner = await insertTestOwner(db, uid("act"));
    const listing = await insertListing(db, owner, listingInput());
    const report = await insertReport(db, listing.id, { reason: "fake-listing" });
    const context = testContext({ db });
    const path = `/admin/reports/${report}`;
    const params = { id: report };

    const detail = unwrapResult(await call(reportLoader, { request: get(path, mod.cookie), params, context }));
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      report: { id: report, reason: "fake-listing" },
      listing: { id: listing.id },
      owner: { id: owner.id },
    });
    const queue = unwrapResult(
      await call(adminIndexLoader, { request: get("/admin?reason=fake-listing", mod.cookie), params: {}, context }),
    );
    expect(JSON.stringify(queue.body)).toContain(report);
    const missing = unwrapResult(
      await call(reportLoader, { request: get("/admin/reports/nope", mod.cookie), params: { id: "nope" }, context }),
    );
    expect(missing.status).toBe(404);

    const noReason = unwrapResult(
      await call(reportAction, { request: post(path, { intent: "hide", reason: "  " }, mod.cookie), params, context }),
    );
    expect(noReason).toMatchObject({ status: 422, body: { error: "admin.actions.errors.reasonRequired" } });
    const foreign = unwrapResult(
      await call(reportAction, {
        request: post(path, { intent: "hide", reason: "Fake" }, mod.cookie, "https://evil.example"),
        params,
        context,
      }),
    );
    expect(foreign.status).toBe(403);
    expect(await listingRow(db, listing.id)).toMatchObject({ status: "active" });

    const done = (await call(reportAction, {
      request: post(path, { intent: "hide", reason: "Fake photos" }, mod.cookie),
      params,
      context,
    })) as Response;
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe(`${path}?done=hide`);
    expect(await listingRow(db, listing.id)).toEqual({
      status: "hidden",
      hiddenBy: "moderator",
      hiddenReason: "Fake photos",
    });
    expect(await auditRows(db, listing.id)).toEqual([
      expect.objectContaining({ actorId: mod.id, actorEmail: mod.email, action: "listing.hide" }),
    ]);

    const self = unwrapResult(
      await call(reportAction, {
        request: post(path, { intent: "hide", reason: "Again" }, mod.cookie),
        params,
        context,
      }),
    );
    expect(self).toMatchObject({ status: 409, body: { error: "admin.actions.errors.conflict" } });
  });

  it("a moderator reviews, dismisses, suspends and reinstates through the report page; the owner is signed out", async () => {
    const { db } = ctx();
    const mod = await signedIn(db, "moderator");
    const owner = await signedIn(db);
    const listing = await insertListing(db, owner, listingInput());
    const first = await insertReport(db, listing.id);
    const second = await insertReport(db, listing.id);
    const context = testContext({ db });
    const act = (report: string, fields: Record<string, string>) =>
      call(reportAction, {
        request: post(`/admin/reports/${report}`, fields, mod.cookie),
        params: { id: report },
        context,
      }) as Promise<Response>;

    expect((await act(first, { intent: "review" })).headers.get("location")).toBe(
      `/admin/reports/${first}?done=review`,
    );
    expect((await act(second, { intent: "dismiss", reason: "Duplicate" })).headers.get("location")).toBe(
      `/admin/reports/${second}?done=dismiss`,
    );
    const noReason = unwrapResult(await act(first, { intent: "suspend" }));
    expect(noReason).toMatchObject({ status: 422, body: { error: "admin.actions.errors.reasonRequired" } });

    expect((await act(first, { intent: "suspend", reason: "Scammer" })).status).toBe(302);
    expect(await getSessionUser(get("/dashboard", owner.cookie), context)).toBeNull();
    expect(await listingRow(db, listing.id)).toMatchObject({ status: "hidden", hiddenBy: "suspension" });
    expect((await act(first, { intent: "reinstate" })).status).toBe(302);
    expect(await listingRow(db, listing.id)).toMatchObject({ status: "active", hiddenBy: null });

    const actions = await db
      .selectFrom("audit_log")
      .select(["action", "actorId"])
      .where("targetId", "in", [first, second, owner.id])
      .orderBy("createdAt")
      .execute();
    expect(actions.map((a) => a.action).sort()).toEqual([
      "report.dismiss",
      "report.review",
      "user.reinstate",
      "user.suspend",
    ]);
    expect(new Set(actions.map((a) => a.actorId))).toEqual(new Set([mod.id]));
  });
});
