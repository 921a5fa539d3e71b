import type { DB } from "~/db/db.server";
import type { Translator } from "~/i18n";
import { translatorFor } from "~/i18n/translator.server";
import type { MailText } from "~/models/outbox.server";
import { enqueueMail } from "~/models/outbox.server";
import {
  type AutoHideNotice,
  autoHideNotice,
  type CreateReportResult,
  emailModerators,
  type ReportDigest,
  type ReportedListing,
  sendReportDigests,
} from "~/models/report.server";
import { HIDDEN_STATUS } from "~/schemas/listing-status";
import { isReportReason } from "~/schemas/moderation";
import "virtual:catalogue/mail";
import "virtual:catalogue/report";

/**
 * The emails about reports: the models say what happened (a report, a listing
 * hidden, a digest of reports), these functions put it into words with the
 * translator they are given (ADR 028), and the models queue them.
 */
export type Site = { supportEmail: string; siteName: string; siteUrl: string };

/** Line breaks in what people typed must not make a multi-line subject. */
const oneLine = (text: string) => text.replace(/\s+/g, " ");

function reasonLabel(t: Translator, reason: string): string {
  return isReportReason(reason) ? t(`report.reasons.${reason}.label`) : reason;
}

/** Moderators' email about one new report, with a link to review it in /admin. */
export function newReportMail(t: Translator, site: Site, created: Extract<CreateReportResult, { ok: true }>): MailText {
  const { report, listing } = created;
  const values = {
    siteName: site.siteName,
    title: listing.title,
    adNumber: String(listing.id),
    listingUrl: `${site.siteUrl}/listing/${listing.slug}`,
    reason: reasonLabel(t, report.reason),
    description: report.description || t("mail.report.noDescription"),
    reporterName: report.reporterName,
    reporterEmail: report.reporterEmail,
    reporterContact: report.reporterContact,
    autoHidden: created.autoHidden ? t("mail.report.autoHidden", { count: created.reporterCount }) : "",
    reviewUrl: `${site.siteUrl}/admin/reports/${report.id}`,
    id: report.id,
    receivedAt: report.createdAt,
  };
  return { subject: oneLine(t("mail.report.subject", values)), text: t("mail.report.text", values) };
}

/** The owner's email: reports hid the listing until a moderator reviews it, and why. */
export function autoHiddenMail(t: Translator, site: Site, notice: AutoHideNotice): MailText {
  const values = {
    siteName: site.siteName,
    name: notice.name,
    title: notice.listing.title,
    adNumber: String(notice.listing.id),
    reasons: notice.reasons.map((reason) => reasonLabel(t, reason)).join(", "),
    myAdsUrl: `${site.siteUrl}/dashboard`,
  };
  return {
    subject: oneLine(t("mail.listingAutoHidden.subject", values)),
    text: t("mail.listingAutoHidden.text", values),
  };
}

/** Moderators' hourly email gathering the reports on one listing. */
export function reportDigestMail(t: Translator, site: Site, digest: ReportDigest): MailText {
  const { listing, listingId, reports } = digest;
  const values = {
    siteName: site.siteName,
    count: reports.length,
    title: listing?.title ?? "",
    adNumber: String(listingId),
    listingUrl: `${site.siteUrl}/listing/${listing?.slug ?? listingId}`,
    status: listing?.status === HIDDEN_STATUS ? t("mail.reportDigest.hidden") : "",
    reports: reports
      .map((r) =>
        t("mail.reportDigest.line", {
          reason: reasonLabel(t, r.reason),
          reporterName: r.reporterName,
          reporterEmail: r.reporterEmail,
          receivedAt: r.createdAt,
          reviewUrl: `${site.siteUrl}/admin/reports/${r.id}`,
        }).replace(/[\r\n]+/g, " "),
      )
      .join("\n"),
  };
  return { subject: oneLine(t("mail.reportDigest.subject", values)), text: t("mail.reportDigest.text", values) };
}

/** Emails every moderator about a new report through the outbox. */
export function emailModeratorsAboutReport(
  db: DB,
  site: Site,
  created: Extract<CreateReportResult, { ok: true }>,
): Promise<string[]> {
  return emailModerators(db, site.supportEmail, {
    kind: "report",
    replyTo: created.report.reporterEmail,
    compose: (locale) => newReportMail(translatorFor(locale), site, created),
  });
}

/** Tells the owner of a listing, in their preferred language, that reports just hid it, pending a moderator's review. */
export async function emailOwnerAboutAutoHide(db: DB, site: Site, listing: ReportedListing): Promise<string | null> {
  const notice = await autoHideNotice(db, listing);
  if (!notice) return null;
  const t = translatorFor(notice.locale);
  return enqueueMail(db, { kind: "listing-auto-hidden", to: notice.email, ...autoHiddenMail(t, site, notice) });
}

/** The "report-digest" job (see sendReportDigests). */
export function emailReportDigests(db: DB, site: Site, now?: Date): Promise<{ digests: number; reports: number }> {
  return sendReportDigests(
    db,
    {
      supportEmail: site.supportEmail,
      compose: (digest, locale) => reportDigestMail(translatorFor(locale), site, digest),
    },
    now,
  );
}
