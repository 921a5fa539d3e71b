import { randomUUID } from "node:crypto";
import type { DB } from "../db/db.server";
import { t } from "../i18n";
import type { ReportInput } from "../schemas/report";
import { MAX_AD_NUMBER } from "../lib/slug";
import { audit } from "./moderation.server";
import { enqueueMail } from "./outbox.server";
import "virtual:catalogue/mail";
import "virtual:catalogue/report";
import { invalidatePublicPages } from "../cache/invalidation.server";
import { currentTime } from "../lib/clock";

/** Listings the public can see, and so report (hidden ones are gone: SPEC.md section 2). */
const REPORTABLE_STATUSES = ["active", "expired"];


export type ReportedListing = { id: number; slug: string; title: string };
export type StoredReport = ReportInput & { id: string; status: "pending"; createdAt: string };

export type CreateReportResult =
  | { ok: true; report: StoredReport; listing: ReportedListing; autoHidden: boolean; reporterCount: number }
  | { ok: false; error: "listing-not-found" };

/**
 * Stores a report (already validated by `reportSchema`) as 'pending'. In the
 * same transaction, when `autoHideAt` different people (emails compared without
 * case) have pending reports on the listing, the listing is hidden until a
 * moderator reviews it, with an audit_log entry by the system (actorId null).
 */
export async function createReport(
  db: DB,
  input: ReportInput,
  options: { autoHideAt: number; now?: Date },
): Promise<CreateReportResult> {
  const at = (options.now ?? currentTime()).toISOString();
  const listingId = Number(input.listingId);
  // Ad numbers are PostgreSQL integers: a larger number is no listing (and no query error).
  if (!Number.isSafeInteger(listingId) || listingId < 1 || listingId > MAX_AD_NUMBER) return { ok: false, error: "listing-not-found" };
  return db.transaction().execute(async (trx) => {
    // A no-op write takes the listing's row lock on PostgreSQL, so concurrent
    // reports on one listing count and hide one after another (SQLite runs one
    // transaction at a time anyway); it also refuses hidden or missing listings.
    const locked = await trx
      .updateTable("listings")
      .set((eb) => ({ updatedAt: eb.ref("updatedAt") }))
      .where("id", "=", listingId)
      .where("status", "in", REPORTABLE_STATUSES)
      .executeTakeFirst();
    if (Number(locked.numUpdatedRows) !== 1) return { ok: false, error: "listing-not-found" } as const;
    const listing = await trx.selectFrom("listings").select(["id", "slug", "title"]).where("id", "=", listingId).executeTakeFirstOrThrow();

    const report: StoredReport = { ...input, id: randomUUID(), status: "pending", createdAt: at };
    await trx
      .insertInto("reports")
      .values({
        id: report.id,
        listingId,
        reporterName: input.reporterName,
        reporterEmail: input.reporterEmail,
        reporterContact: input.reporterContact,
        reason: input.reason,
        description: input.description === "" ? null : input.description,
        status: "pending",
        createdAt: at,
        updatedAt: at,
      })
      .execute();

    const reporterCount = await countPendingReporters(trx, listingId);
    const autoHidden = reporterCount >= options.autoHideAt;
    if (autoHidden) {
      const reason = t("report.autoHide.reason", { count: reporterCount });
      await trx
        .updateTable("listings")
        .set({ status: "hidden", hiddenBy: "reports", hiddenReason: reason, updatedAt: at })
        .where("id", "=", listingId)
        .execute();
      await invalidatePublicPages(trx, [listingId], options.now);
      await audit(trx, null, "listing.auto-hide", { type: "listing", id: listingId }, reason, at);
    }
    return { ok: true, report, listing, autoHidden, reporterCount } as const;
  });
}

/** Different people (emails compared without case) with a pending report on the listing. */
export async function countPendingReporters(db: DB, listingId: number): Promise<number> {
  const row = await db
    .selectFrom("reports")
    .select((eb) => eb.fn.count<string | number>(eb.fn("lower", [eb.ref("reporterEmail")])).distinct().as("reporters"))
    .where("listingId", "=", listingId)
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  return Number(row.reporters);
}

/** Active moderators' addresses; support's address when there are none yet. */
export async function moderatorAddresses(db: DB, supportEmail: string): Promise<string[]> {
  const rows = await db
    .selectFrom("users")
    .select("email")
    .where("role", "=", "moderator")
    .where("status", "=", "active")
    .orderBy("email")
    .execute();
  return rows.length > 0 ? rows.map((r) => r.email) : [supportEmail];
}

/**
 * Emails every moderator about a new report through the outbox (plain text:
 * what the reporter typed is never HTML), with a link to review it in /admin.
 */
export async function emailModeratorsAboutReport(
  db: DB,
  site: { supportEmail: string; siteName: string; siteUrl: string },
  created: Extract<CreateReportResult, { ok: true }>,
): Promise<string[]> {
  const { report, listing } = created;
  const reason = t(`report.reasons.${report.reason}.label`);
  const values = {
    siteName: site.siteName,
    title: listing.title,
    adNumber: String(listing.id),
    listingUrl: `${site.siteUrl}/listing/${listing.slug}`,
    reason,
    description: report.description || t("mail.report.noDescription"),
    reporterName: report.reporterName,
    reporterEmail: report.reporterEmail,
    reporterContact: report.reporterContact,
    autoHidden: created.autoHidden ? t("mail.report.autoHidden", { count: created.reporterCount }) : "",
    reviewUrl: `${site.siteUrl}/admin/reports/${report.id}`,
    id: report.id,
    receivedAt: report.createdAt,
  };
  // Line breaks in what people typed must not make a multi-line subject.
  const subject = t("mail.report.subject", values).replace(/\s+/g, " ");
  const text = t("mail.report.text", values);
  const ids: string[] = [];
  for (const to of await moderatorAddresses(db, site.supportEmail)) {
    ids.push(await enqueueMail(db, { kind: "report", to, replyTo: report.reporterEmail, subject, text }));
  }
  return ids;
}
