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

/**
 * Auto-hide needs independent reporters (issue 9, ADR 017). A report counts
 * towards REPORT_AUTO_HIDE only when it came from a browser this site knows
 * (a signed visitor id) or a signed-in account, from a network (IPv4 /24,
 * IPv6 /64), browser and account that no counted report on the listing used
 * yet: at most one per network. Signed-in reporters weigh more (an account
 * costs more to make than a cookie).
 */
export const REPORT_WEIGHT = { signedIn: 2, anonymous: 1 } as const;
/** Reports one network may file on one listing in a day (stored or not, counted or not). */
export const REPORTS_PER_ORIGIN_PER_LISTING = 3;
const ORIGIN_CAP_WINDOW_MS = 24 * 60 * 60 * 1000;
/** After a moderator restores a listing, only reports filed this much later count again. */
export const RESTORE_COOL_DOWN_MS = 24 * 60 * 60 * 1000;
/** Moderators get at most one email per listing per hour (the first report at once, the rest in a digest). */
export const MODERATOR_MAIL_INTERVAL_MS = 60 * 60 * 1000;

export type ReportedListing = { id: number; slug: string; title: string };
export type StoredReport = ReportInput & { id: string; status: "pending"; createdAt: string };

/** Who filed a report, as far as the server can tell. */
export type Reporter = {
  /** networkOrigin() of the client address. */
  originGroup: string;
  /** Salted hash of a signed visitor id the request carried (not one issued with the answer), else null. */
  visitorKey: string | null;
  userId: string | null;
};

export type CreateReportResult =
  | {
      ok: true;
      report: StoredReport;
      listing: ReportedListing;
      autoHidden: boolean;
      /** Independent reporters counted towards hiding, and their weight. */
      reporterCount: number;
      weight: number;
      /** Email moderators now (else the digest job gathers it within the hour). */
      notifyModerators: boolean;
    }
  | { ok: false; error: "listing-not-found" | "origin-cap" };

/**
 * Stores a report (already validated by `reportSchema`) as 'pending'. In the
 * same transaction, when the independent reporters' weight on the listing
 * (`countIndependentReports`) reaches `autoHideAt`, the listing is hidden until
 * a moderator reviews it, with an audit_log entry by the system (actorId null).
 * A network that already filed REPORTS_PER_ORIGIN_PER_LISTING reports on the
 * listing today is refused ('origin-cap').
 */
export async function createReport(
  db: DB,
  input: ReportInput,
  options: { autoHideAt: number; reporter: Reporter; now?: Date },
): Promise<CreateReportResult> {
  const now = options.now ?? currentTime();
  const at = now.toISOString();
  const listingId = Number(input.listingId);
  // Ad numbers are PostgreSQL integers: a larger number is no listing (and no query error).
  if (!Number.isSafeInteger(listingId) || listingId < 1 || listingId > MAX_AD_NUMBER)
    return { ok: false, error: "listing-not-found" };
  const { reporter } = options;
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
    const listing = await trx
      .selectFrom("listings")
      .select(["id", "slug", "title"])
      .where("id", "=", listingId)
      .executeTakeFirstOrThrow();

    const fromOrigin = await trx
      .selectFrom("reports")
      .select((eb) => eb.fn.countAll<string | number>().as("n"))
      .where("listingId", "=", listingId)
      .where("originGroup", "=", reporter.originGroup)
      .where("createdAt", ">", new Date(now.getTime() - ORIGIN_CAP_WINDOW_MS).toISOString())
      .executeTakeFirstOrThrow();
    if (Number(fromOrigin.n) >= REPORTS_PER_ORIGIN_PER_LISTING) return { ok: false, error: "origin-cap" } as const;

    const lastNotified = await trx
      .selectFrom("reports")
      .select((eb) => eb.fn.max("notifiedAt").as("at"))
      .where("listingId", "=", listingId)
      .executeTakeFirst();
    const notifyModerators =
      !lastNotified?.at || Date.parse(lastNotified.at) <= now.getTime() - MODERATOR_MAIL_INTERVAL_MS;

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
        originGroup: reporter.originGroup,
        visitorKey: reporter.visitorKey,
        reporterUserId: reporter.userId,
        notifiedAt: notifyModerators ? at : null,
      })
      .execute();

    const { reporters: reporterCount, weight } = await countIndependentReports(trx, listingId);
    const autoHidden = weight >= options.autoHideAt;
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
    return { ok: true, report, listing, autoHidden, reporterCount, weight, notifyModerators } as const;
  });
}

/**
 * The pending reports on a listing that count towards hiding it, and their
 * weight. Once a moderator has restored the listing, only reports filed
 * RESTORE_COOL_DOWN_MS after the restore count, and none from a network,
 * browser or account that reported it before then (that wave was reviewed).
 */
export async function countIndependentReports(
  db: DB,
  listingId: number,
): Promise<{ reporters: number; weight: number; reasons: string[] }> {
  const restored = await db
    .selectFrom("audit_log")
    .select((eb) => eb.fn.max("createdAt").as("at"))
    .where("targetType", "=", "listing")
    .where("targetId", "=", String(listingId))
    .where("action", "=", "listing.restore")
    .executeTakeFirst();
  const countFrom = restored?.at ? new Date(Date.parse(restored.at) + RESTORE_COOL_DOWN_MS).toISOString() : "";
  const rows = await db
    .selectFrom("reports")
    .select(["status", "createdAt", "originGroup", "visitorKey", "reporterUserId", "reason"])
    .where("listingId", "=", listingId)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  const used = { origins: new Set<string>(), visitors: new Set<string>(), users: new Set<string>() };
  const isUsed = (r: (typeof rows)[number]) =>
    (r.originGroup !== null && used.origins.has(r.originGroup)) ||
    (r.visitorKey !== null && used.visitors.has(r.visitorKey)) ||
    (r.reporterUserId !== null && used.users.has(r.reporterUserId));
  const use = (r: (typeof rows)[number]) => {
    if (r.originGroup !== null) used.origins.add(r.originGroup);
    if (r.visitorKey !== null) used.visitors.add(r.visitorKey);
    if (r.reporterUserId !== null) used.users.add(r.reporterUserId);
  };
  let reporters = 0;
  let weight = 0;
  const reasons = new Set<string>();
  for (const row of rows) {
    // An earlier wave (before the restore's cool-down ended) spends its reporters.
    if (row.createdAt < countFrom) {
      use(row);
      continue;
    }
    if (row.status !== "pending" || row.originGroup === null) continue;
    if (row.visitorKey === null && row.reporterUserId === null) continue;
    if (isUsed(row)) continue;
    use(row);
    reporters += 1;
    weight += row.reporterUserId !== null ? REPORT_WEIGHT.signedIn : REPORT_WEIGHT.anonymous;
    reasons.add(row.reason);
  }
  return { reporters, weight, reasons: [...reasons] };
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

/**
 * Tells the owner of a listing that reports just hid it, pending a moderator's
 * review, and why: the reasons chosen by the counted reporters (never who they are).
 */
export async function emailOwnerAboutAutoHide(
  db: DB,
  site: { siteName: string; siteUrl: string },
  listing: ReportedListing,
): Promise<string | null> {
  const owner = await db
    .selectFrom("listings")
    .innerJoin("users", "users.id", "listings.userId")
    .select(["users.email", "users.name"])
    .where("listings.id", "=", listing.id)
    .executeTakeFirst();
  if (!owner) return null;
  const { reasons } = await countIndependentReports(db, listing.id);
  const values = {
    siteName: site.siteName,
    name: owner.name,
    title: listing.title,
    adNumber: String(listing.id),
    reasons: reasons.map((reason) => t(`report.reasons.${reason}.label`)).join(", "),
    myAdsUrl: `${site.siteUrl}/dashboard`,
  };
  return enqueueMail(db, {
    kind: "listing-auto-hidden",
    to: owner.email,
    subject: t("mail.listingAutoHidden.subject", values).replace(/\s+/g, " "),
    text: t("mail.listingAutoHidden.text", values),
  });
}

/**
 * The "report-digest" job: for each listing whose reports arrived while its
 * moderators' hourly email was spent (notifiedAt null), one email gathering
 * them once the hour since the last one has passed.
 */
export async function sendReportDigests(
  db: DB,
  site: { supportEmail: string; siteName: string; siteUrl: string },
  now = currentTime(),
): Promise<{ digests: number; reports: number }> {
  const waiting = await db
    .selectFrom("reports")
    .select("listingId")
    .distinct()
    .where("notifiedAt", "is", null)
    .execute();
  const due = new Date(now.getTime() - MODERATOR_MAIL_INTERVAL_MS).toISOString();
  const at = now.toISOString();
  let digests = 0;
  let reports = 0;
  for (const { listingId } of waiting) {
    const sent = await db
      .transaction()
      .execute(async (trx) => {
        const last = await trx
          .selectFrom("reports")
          .select((eb) => eb.fn.max("notifiedAt").as("at"))
          .where("listingId", "=", listingId)
          .executeTakeFirst();
        if (last?.at && last.at > due) return 0;
        const rows = await trx
          .selectFrom("reports")
          .select(["id", "reason", "reporterName", "reporterEmail", "createdAt"])
          .where("listingId", "=", listingId)
          .where("notifiedAt", "is", null)
          .orderBy("createdAt")
          .execute();
        if (rows.length === 0) return 0;
        const marked = await trx
          .updateTable("reports")
          .set({ notifiedAt: at })
          .where(
            "id",
            "in",
            rows.map((r) => r.id),
          )
          .where("notifiedAt", "is", null)
          .executeTakeFirst();
        // Another run got there first.
        if (Number(marked.numUpdatedRows) !== rows.length) throw new DigestRace();
        const listing = await trx
          .selectFrom("listings")
          .select(["id", "slug", "title", "status"])
          .where("id", "=", listingId)
          .executeTakeFirst();
        const values = {
          siteName: site.siteName,
          count: rows.length,
          title: listing?.title ?? "",
          adNumber: String(listingId),
          listingUrl: `${site.siteUrl}/listing/${listing?.slug ?? listingId}`,
          status: listing?.status === "hidden" ? t("mail.reportDigest.hidden") : "",
          reports: rows
            .map((r) =>
              t("mail.reportDigest.line", {
                reason: t(`report.reasons.${r.reason}.label`),
                reporterName: r.reporterName,
                reporterEmail: r.reporterEmail,
                receivedAt: r.createdAt,
                reviewUrl: `${site.siteUrl}/admin/reports/${r.id}`,
              }).replace(/[\r\n]+/g, " "),
            )
            .join("\n"),
        };
        const subject = t("mail.reportDigest.subject", values).replace(/\s+/g, " ");
        const text = t("mail.reportDigest.text", values);
        for (const to of await moderatorAddresses(trx, site.supportEmail))
          await enqueueMail(trx, { kind: "report-digest", to, subject, text }, now);
        return rows.length;
      })
      .catch((error: unknown) => {
        if (error instanceof DigestRace) return 0;
        throw error;
      });
    if (sent > 0) {
      digests += 1;
      reports += sent;
    }
  }
  return { digests, reports };
}

class DigestRace extends Error {}
