import { type ExpressionBuilder, sql } from "kysely";
import type { DB } from "../db/db.server";
import type { Database } from "../db/schema";
import { paginate, type Pagination } from "../lib/pagination";
import type { ReportStatus } from "../schemas/moderation";
import { invalidatePublicPages } from "../cache/invalidation.server";
import { currentTime } from "../lib/clock";
import { DELETED_STATUS } from "./my-listings.server";

/**
 * Moderation (issue 4; ENGINEERING.md "Decisions over the spec"): moderators
 * read reports, hide and restore listings, suspend and reinstate owners. Every
 * action changes its rows and writes its audit_log row in one transaction, and
 * each change is conditional on the state it expects, so two moderators acting
 * at once cannot both succeed.
 */

export type Role = "owner" | "moderator";

export type AuditAction =
  | "report.dismiss"
  | "report.review"
  | "listing.hide"
  | "listing.restore"
  | "listing.auto-hide"
  | "user.suspend"
  | "user.reinstate"
  | "user.role";

/** Who acts: a signed-in moderator, or null for the command line / the system. */
export type Actor = { id: string; email: string } | null;

export type ModerationFailure = "not-found" | "conflict" | "self" | "moderator" | "owner-suspended";
export type ModerationResult = { ok: true } | { ok: false; reason: ModerationFailure };

const NOT_FOUND = { ok: false, reason: "not-found" } as const;
const CONFLICT = { ok: false, reason: "conflict" } as const;

async function inTransaction<T>(db: DB, work: (trx: DB) => Promise<T>): Promise<T> {
  // Kysely cannot nest transactions: inside a caller's transaction, use it.
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/** Rolls the transaction back with a result value (thrown, caught by `run`). */
class Refusal extends Error {
  constructor(readonly result: ModerationResult) {
    super(result.ok ? "ok" : result.reason);
  }
}

async function run(db: DB, work: (trx: DB) => Promise<void>): Promise<ModerationResult> {
  try {
    await inTransaction(db, work);
    return { ok: true };
  } catch (error) {
    if (error instanceof Refusal) return error.result;
    throw error;
  }
}

/** Writes one audit_log row; call it inside the transaction that made the change. */
export async function audit(
  db: DB,
  actor: Actor,
  action: AuditAction,
  target: { type: "listing" | "user" | "report"; id: string | number },
  reason: string | null,
  now: string,
) {
  await db
    .insertInto("audit_log")
    .values({
      id: crypto.randomUUID(),
      actorId: actor?.id ?? null,
      actorEmail: actor?.email ?? null,
      action,
      targetType: target.type,
      targetId: String(target.id),
      reason: reason || null,
      createdAt: now,
    })
    .execute();
}

/** Nothing changed: a conflict when the row is there (someone acted first), else not found. */
async function refuseUnchanged(db: DB, table: "reports" | "listings" | "users", id: string | number): Promise<never> {
  const row = await db
    .selectFrom(table)
    .select("id")
    .where("id", "=", id as never)
    .executeTakeFirst();
  throw new Refusal(row ? CONFLICT : NOT_FOUND);
}

function changed(result: { numUpdatedRows: bigint }): boolean {
  return Number(result.numUpdatedRows) > 0;
}

/** A listing's pending reports become 'reviewed' (a moderator has looked). */
async function reviewPendingReports(db: DB, listingId: number, now: string) {
  await db
    .updateTable("reports")
    .set({ status: "reviewed", updatedAt: now })
    .where("listingId", "=", listingId)
    .where("status", "=", "pending")
    .execute();
}

// ---------------------------------------------------------------- roles

export type SetRoleResult = { ok: true; changed: boolean; name: string } | { ok: false; reason: "unknown-email" };

/** `npm run user:role`: grants or takes back the moderator role (audited, actor: the command line). */
export async function setUserRole(db: DB, email: string, role: Role, now = currentTime()): Promise<SetRoleResult> {
  return inTransaction(db, async (trx) => {
    const user = await trx
      .selectFrom("users")
      .select(["id", "name", "role"])
      .where("email", "=", email.trim().toLowerCase())
      .executeTakeFirst();
    if (!user) return { ok: false, reason: "unknown-email" } as const;
    if (user.role === role) return { ok: true, changed: false, name: user.name } as const;
    const at = now.toISOString();
    await trx.updateTable("users").set({ role, updatedAt: at }).where("id", "=", user.id).execute();
    await audit(
      trx,
      null,
      "user.role",
      { type: "user", id: user.id },
      `${user.role} → ${role} (npm run user:role)`,
      at,
    );
    return { ok: true, changed: true, name: user.name } as const;
  });
}

// ---------------------------------------------------------------- reports

export type QueueFilters = { status?: ReportStatus; reason?: string };

export type QueueReport = { id: string; reason: string; status: ReportStatus; reporterName: string; createdAt: string };

export type QueueGroup = {
  listing: { id: number; slug: string; title: string; status: string; hiddenBy: string | null };
  /** Reports matching the filters. */
  count: number;
  pending: number;
  latestAt: string;
  reports: QueueReport[];
};

export type ReportQueue = { groups: QueueGroup[]; pagination: Pagination };

function queueWhere(filters: QueueFilters) {
  return (eb: ExpressionBuilder<Database, "reports">) => {
    const conditions = [];
    if (filters.status) conditions.push(eb("reports.status", "=", filters.status));
    if (filters.reason) conditions.push(eb("reports.reason", "=", filters.reason));
    return eb.and(conditions);
  };
}

/**
 * The reports queue, grouped per listing with counts: listings with pending
 * reports first, then the most recently reported. Paginated by listing.
 */
export async function listReportQueue(
  db: DB,
  filters: QueueFilters,
  options: { page: number; limit: number },
): Promise<ReportQueue> {
  const where = queueWhere(filters);
  const countRow = await db
    .selectFrom("reports")
    .select(sql<number>`count(distinct ${sql.ref("reports.listingId")})`.as("count"))
    .where(where)
    .executeTakeFirst();
  const total = Number(countRow?.count ?? 0);
  const pagination = paginate(options.page, options.limit, total);
  if (total === 0 || options.page > pagination.totalPages) return { groups: [], pagination };

  const pendingSum = sql<number>`sum(case when ${sql.ref("reports.status")} = 'pending' then 1 else 0 end)`;
  const rows = await db
    .selectFrom("reports")
    .innerJoin("listings", "listings.id", "reports.listingId")
    .select([
      "reports.listingId",
      "listings.slug",
      "listings.title",
      "listings.status",
      "listings.hiddenBy",
      (eb) => eb.fn.countAll().as("count"),
      pendingSum.as("pending"),
      (eb) => eb.fn.max("reports.createdAt").as("latestAt"),
    ])
    .where(where)
    .groupBy(["reports.listingId", "listings.slug", "listings.title", "listings.status", "listings.hiddenBy"])
    .orderBy(sql`case when ${pendingSum} > 0 then 1 else 0 end`, "desc")
    .orderBy(sql`max(${sql.ref("reports.createdAt")})`, "desc")
    .orderBy("reports.listingId", "desc")
    .limit(options.limit)
    .offset((options.page - 1) * options.limit)
    .execute();

  const listingIds = rows.map((r) => r.listingId);
  const reports = await db
    .selectFrom("reports")
    .select(["id", "listingId", "reason", "status", "reporterName", "createdAt"])
    .where("listingId", "in", listingIds)
    .where(where)
    .orderBy("createdAt", "desc")
    .orderBy("id")
    .execute();

  const groups = rows.map((row) => ({
    listing: { id: row.listingId, slug: row.slug, title: row.title, status: row.status, hiddenBy: row.hiddenBy },
    count: Number(row.count),
    pending: Number(row.pending),
    latestAt: String(row.latestAt),
    reports: reports
      .filter((r) => r.listingId === row.listingId)
      .map(({ id, reason, status, reporterName, createdAt }) => ({
        id,
        reason,
        status: status as ReportStatus,
        reporterName,
        createdAt,
      })),
  }));
  return { groups, pagination };
}

export type ReportDetail = {
  report: {
    id: string;
    reason: string;
    description: string | null;
    status: ReportStatus;
    reporterName: string;
    reporterEmail: string;
    reporterContact: string;
    createdAt: string;
    updatedAt: string;
  };
  listing: {
    id: number;
    slug: string;
    title: string;
    status: string;
    hiddenBy: string | null;
    hiddenReason: string | null;
    expiresAt: string;
  };
  owner: { id: string; name: string; email: string; role: string; status: string } | null;
  /** The listing's other reports, newest first. */
  otherReports: QueueReport[];
};

export async function getReportDetail(db: DB, reportId: string): Promise<ReportDetail | null> {
  const report = await db.selectFrom("reports").selectAll().where("id", "=", reportId).executeTakeFirst();
  if (!report) return null;
  const listing = await db
    .selectFrom("listings")
    .select(["id", "slug", "title", "status", "hiddenBy", "hiddenReason", "expiresAt", "userId"])
    .where("id", "=", report.listingId)
    .executeTakeFirst();
  if (!listing) return null;
  const owner = await db
    .selectFrom("users")
    .select(["id", "name", "email", "role", "status"])
    .where("id", "=", listing.userId)
    .executeTakeFirst();
  const others = await db
    .selectFrom("reports")
    .select(["id", "reason", "status", "reporterName", "createdAt"])
    .where("listingId", "=", report.listingId)
    .where("id", "!=", report.id)
    .orderBy("createdAt", "desc")
    .orderBy("id")
    .execute();
  const { userId: _owner, ...listingFields } = listing;
  return {
    report: {
      id: report.id,
      reason: report.reason,
      description: report.description,
      status: report.status as ReportStatus,
      reporterName: report.reporterName,
      reporterEmail: report.reporterEmail,
      reporterContact: report.reporterContact,
      createdAt: report.createdAt,
      updatedAt: report.updatedAt,
    },
    listing: listingFields,
    owner: owner ?? null,
    otherReports: others.map((r) => ({ ...r, status: r.status as ReportStatus })),
  };
}

/** Closes a pending report as 'dismissed' (no action needed) or 'reviewed' (dealt with). */
export async function closeReport(
  db: DB,
  actor: Actor,
  reportId: string,
  outcome: "dismissed" | "reviewed",
  reason: string | null,
  now = currentTime(),
): Promise<ModerationResult> {
  const at = now.toISOString();
  return run(db, async (trx) => {
    const updated = await trx
      .updateTable("reports")
      .set({ status: outcome, updatedAt: at })
      .where("id", "=", reportId)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (!changed(updated)) await refuseUnchanged(trx, "reports", reportId);
    await audit(
      trx,
      actor,
      outcome === "dismissed" ? "report.dismiss" : "report.review",
      { type: "report", id: reportId },
      reason,
      at,
    );
  });
}

// ---------------------------------------------------------------- listings

/**
 * Hides a listing from every public view (status 'hidden'); its owner sees
 * the reason in My Ads. Its pending reports count as reviewed.
 */
export async function hideListing(
  db: DB,
  actor: Actor,
  listingId: number,
  reason: string,
  now = currentTime(),
): Promise<ModerationResult> {
  const at = now.toISOString();
  return run(db, async (trx) => {
    const updated = await trx
      .updateTable("listings")
      .set({ status: "hidden", hiddenBy: "moderator", hiddenReason: reason, updatedAt: at })
      .where("id", "=", listingId)
      // Deleted by its owner (kept as evidence, ADR 020): never back to hidden, so never restored.
      .where("status", "!=", DELETED_STATUS)
      // Already hidden automatically or by a suspension: a moderator's decision replaces it.
      .where((eb) =>
        eb.or([eb("status", "!=", "hidden"), eb("hiddenBy", "is", null), eb("hiddenBy", "!=", "moderator")]),
      )
      .executeTakeFirst();
    if (!changed(updated)) await refuseUnchanged(trx, "listings", listingId);
    await reviewPendingReports(trx, listingId, at);
    await invalidatePublicPages(trx, [listingId], now);
    await audit(trx, actor, "listing.hide", { type: "listing", id: listingId }, reason, at);
  });
}

/**
 * Shows a hidden listing again (status 'active'; the expiry rule still treats
 * it as expired when its time is up). Its pending reports count as reviewed,
 * so the automatic hiding does not fire again at once. A listing of a
 * suspended owner stays hidden until the owner is reinstated.
 */
export async function restoreListing(
  db: DB,
  actor: Actor,
  listingId: number,
  reason: string | null,
  now = currentTime(),
): Promise<ModerationResult> {
  const at = now.toISOString();
  return run(db, async (trx) => {
    const listing = await trx
      .selectFrom("listings")
      .innerJoin("users", "users.id", "listings.userId")
      .select(["listings.status", "users.status as ownerStatus"])
      .where("listings.id", "=", listingId)
      .executeTakeFirst();
    if (!listing) throw new Refusal(NOT_FOUND);
    if (listing.ownerStatus === "suspended") throw new Refusal({ ok: false, reason: "owner-suspended" });
    const updated = await trx
      .updateTable("listings")
      .set({ status: "active", hiddenBy: null, hiddenReason: null, updatedAt: at })
      .where("id", "=", listingId)
      .where("status", "=", "hidden")
      .executeTakeFirst();
    if (!changed(updated)) throw new Refusal(CONFLICT);
    await reviewPendingReports(trx, listingId, at);
    await invalidatePublicPages(trx, [listingId], now);
    await audit(trx, actor, "listing.restore", { type: "listing", id: listingId }, reason, at);
  });
}

// ---------------------------------------------------------------- users

/**
 * Suspends an owner: they cannot sign in, their sessions end, and their
 * public listings are hidden (hiddenBy 'suspension', so reinstating brings
 * back exactly those). Moderators cannot be suspended (take the role back
 * first), nor can a moderator suspend themselves.
 */
export async function suspendUser(
  db: DB,
  actor: Actor,
  userId: string,
  reason: string,
  now = currentTime(),
): Promise<ModerationResult> {
  const at = now.toISOString();
  if (actor && actor.id === userId) return { ok: false, reason: "self" };
  return run(db, async (trx) => {
    const user = await trx.selectFrom("users").select(["role", "status"]).where("id", "=", userId).executeTakeFirst();
    if (!user) throw new Refusal(NOT_FOUND);
    if (user.role === "moderator") throw new Refusal({ ok: false, reason: "moderator" });
    const updated = await trx
      .updateTable("users")
      .set({ status: "suspended", updatedAt: at })
      .where("id", "=", userId)
      .where("status", "=", "active")
      .where("role", "=", "owner")
      .executeTakeFirst();
    if (!changed(updated)) throw new Refusal(CONFLICT);
    await trx.deleteFrom("sessions").where("userId", "=", userId).execute();
    // Pending listings are not public and keep waiting for review.
    await trx
      .updateTable("listings")
      .set({ status: "hidden", hiddenBy: "suspension", hiddenReason: reason, updatedAt: at })
      .where("userId", "=", userId)
      .where("status", "in", ["active", "expired"])
      .execute();
    await invalidatePublicPages(trx, "all", now);
    await audit(trx, actor, "user.suspend", { type: "user", id: userId }, reason, at);
  });
}

/** Lets a suspended owner sign in again; only the listings the suspension hid come back. */
export async function reinstateUser(
  db: DB,
  actor: Actor,
  userId: string,
  reason: string | null,
  now = currentTime(),
): Promise<ModerationResult> {
  const at = now.toISOString();
  return run(db, async (trx) => {
    const updated = await trx
      .updateTable("users")
      .set({ status: "active", updatedAt: at })
      .where("id", "=", userId)
      .where("status", "=", "suspended")
      .executeTakeFirst();
    if (!changed(updated)) await refuseUnchanged(trx, "users", userId);
    await trx
      .updateTable("listings")
      .set({ status: "active", hiddenBy: null, hiddenReason: null, updatedAt: at })
      .where("userId", "=", userId)
      .where("status", "=", "hidden")
      .where("hiddenBy", "=", "suspension")
      .execute();
    await invalidatePublicPages(trx, "all", now);
    await audit(trx, actor, "user.reinstate", { type: "user", id: userId }, reason, at);
  });
}

// ---------------------------------------------------------------- audit log

export type AuditEntry = {
  id: string;
  actorEmail: string | null;
  action: string;
  targetType: string;
  targetId: string;
  /** The listing's title or the user's email, while they exist. */
  targetLabel: string | null;
  reason: string | null;
  createdAt: string;
};

export type AuditPage = { entries: AuditEntry[]; pagination: Pagination };

/** The audit log, newest first. */
export async function listAuditLog(db: DB, options: { page: number; limit: number }): Promise<AuditPage> {
  const countRow = await db
    .selectFrom("audit_log")
    .select((eb) => eb.fn.countAll().as("count"))
    .executeTakeFirst();
  const pagination = paginate(options.page, options.limit, Number(countRow?.count ?? 0));
  const rows = await db
    .selectFrom("audit_log")
    .select(["id", "actorEmail", "action", "targetType", "targetId", "reason", "createdAt"])
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(options.limit)
    .offset((options.page - 1) * options.limit)
    .execute();
  const ids = (type: string) => [...new Set(rows.filter((r) => r.targetType === type).map((r) => r.targetId))];
  const listingIds = ids("listing").map(Number).filter(Number.isSafeInteger);
  const userIds = ids("user");
  const titles = listingIds.length
    ? await db.selectFrom("listings").select(["id", "title"]).where("id", "in", listingIds).execute()
    : [];
  const emails = userIds.length
    ? await db.selectFrom("users").select(["id", "email"]).where("id", "in", userIds).execute()
    : [];
  const labels = new Map<string, string>([
    ...titles.map((l) => [`listing:${l.id}`, l.title] as const),
    ...emails.map((u) => [`user:${u.id}`, u.email] as const),
  ]);
  const entries = rows.map((row) => ({ ...row, targetLabel: labels.get(`${row.targetType}:${row.targetId}`) ?? null }));
  return { entries, pagination };
}
