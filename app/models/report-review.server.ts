import { type ExpressionBuilder, sql } from "kysely";
import type { DB } from "~/db/db.server";
import type { Database } from "~/db/schema";
import { currentTime } from "~/lib/clock";
import { paginate } from "~/lib/pagination";
import type { ListingStatus } from "~/schemas/listing-status";
import { readReason } from "~/schemas/message";
import type { ReportStatus } from "~/schemas/moderation";
import type { HiddenBy, ReportDetail, ReportQueue } from "~/schemas/moderation-view";
import { type Actor, audit } from "./audit-log.server";
import { changed, type ModerationResult, moderate, refuseUnchanged } from "./moderation-action.server";

/** The moderators' side of reports: the queue, one report with its context, and closing it. */

export type QueueFilters = { status?: ReportStatus; reason?: string };

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
    listing: { id: row.listingId, slug: row.slug, title: row.title, ...listingState(row) },
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

/** listings.hiddenBy holds only the values of HiddenBy (the models write them); the status is typed already. */
function listingState(row: { status: ListingStatus; hiddenBy: string | null }) {
  return { status: row.status, hiddenBy: row.hiddenBy as HiddenBy | null };
}

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
  const { userId: _owner, hiddenReason, ...listingFields } = listing;
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
    listing: {
      ...listingFields,
      ...listingState(listing),
      hiddenReason: hiddenReason === null ? null : readReason(hiddenReason, listing.hiddenBy === "reports"),
    },
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
  return moderate(db, now, async (trx, at) => {
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
