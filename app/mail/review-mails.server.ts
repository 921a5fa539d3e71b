import type { DB } from "~/db/db.server";
import type { Translator } from "~/i18n";
import { translatorFor } from "~/i18n/translator.server";
import { type HeldDigest, sendHeldDigests } from "~/models/held-digest.server";
import { approveHeld, type HoldDecisionNotice, rejectHeld } from "~/models/listing-review.server";
import type { ModerationResult } from "~/models/moderation-action.server";
import type { MailText } from "~/models/outbox.server";
import type { HoldSignal } from "~/schemas/review-hold";
import { ownerReasonKeys } from "~/schemas/review-reasons";
import type { Site } from "./report-mails.server";
import "virtual:catalogue/review";
import "virtual:catalogue/review-server";

/**
 * The emails about listings held for review (ADR 078): the owner's decision
 * email in their preferred language, and the moderators' digest of new holds.
 */

const oneLine = (text: string) => text.replace(/\s+/g, " ");

/** One line per thing the checks found, as its owner reads it. */
function reasonLines(t: Translator, signals: readonly HoldSignal[]): string {
  return ownerReasonKeys(signals)
    .map((key) => `- ${t(key)}`)
    .join("\n");
}

/** The owner's email: a moderator approved (published) or rejected their held listing. */
export function holdDecisionMail(t: Translator, site: Site, notice: HoldDecisionNotice): MailText {
  const values = {
    siteName: site.siteName,
    supportEmail: site.supportEmail,
    name: notice.name,
    title: notice.listing.title,
    adNumber: String(notice.listing.id),
    myAdsUrl: `${site.siteUrl}/dashboard`,
    reasons: reasonLines(t, notice.signals),
    reason: notice.reason ?? "",
    note: notice.reason ? t("reviewServer.note", { reason: notice.reason }) : "",
  };
  const area = notice.decision === "approved" ? "approved" : "rejected";
  return {
    subject: oneLine(t(`reviewServer.${area}.subject`, values)),
    text: t(`reviewServer.${area}.text`, values),
  };
}

/** Moderators' email naming the listings held since the last one. */
export function heldDigestMail(t: Translator, site: Site, digest: HeldDigest): MailText {
  const values = {
    siteName: site.siteName,
    count: digest.holds.length,
    queueUrl: `${site.siteUrl}/admin/held`,
    listings: digest.holds
      .map((hold) =>
        oneLine(
          t("reviewServer.digest.line", {
            adNumber: String(hold.listingId),
            title: hold.title,
            heldAt: hold.heldAt,
            reasons: ownerReasonKeys(hold.signals)
              .map((key) => t(key))
              .join(" "),
          }),
        ),
      )
      .join("\n"),
  };
  return { subject: oneLine(t("reviewServer.digest.subject", values)), text: t("reviewServer.digest.text", values) };
}

const compose = (site: Site) => (notice: HoldDecisionNotice) =>
  holdDecisionMail(translatorFor(notice.locale), site, notice);

/** Approves a held listing and emails its owner the decision in their language. */
export function approveHeldListing(
  db: DB,
  site: Site,
  actor: { id: string; email: string },
  listingId: number,
  reason: string | null,
  now?: Date,
): Promise<ModerationResult> {
  return approveHeld(db, actor, listingId, reason, compose(site), now);
}

/** Rejects a held listing with the reason and emails its owner the decision in their language. */
export function rejectHeldListing(
  db: DB,
  site: Site,
  actor: { id: string; email: string },
  listingId: number,
  reason: string,
  now?: Date,
): Promise<ModerationResult> {
  return rejectHeld(db, actor, listingId, reason, compose(site), now);
}

/** The held-for-review part of the "report-digest" job (see sendHeldDigests). */
export function emailHeldDigests(db: DB, site: Site, now?: Date): Promise<number> {
  return sendHeldDigests(
    db,
    {
      supportEmail: site.supportEmail,
      compose: (digest, locale) => heldDigestMail(translatorFor(locale), site, digest),
    },
    now,
  );
}
