import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { PENDING_STATUS } from "~/schemas/listing-status";
import { type HoldSignal, parseHoldSignals } from "~/schemas/review-hold";
import type { MailText } from "./outbox.server";
import { sendModeratorDigest } from "./report.server";

/** The listings one 'held for review' digest names, oldest hold first. */
export type HeldDigest = { holds: { listingId: number; title: string; heldAt: string; signals: HoldSignal[] }[] };

/**
 * Part of the "report-digest" job (ADR 078): when listings were held since
 * the last held-for-review digest and that one is an hour old or more, every
 * moderator gets one email naming them (so at most one an hour, and a
 * listing is named once). Returns how many listings the email named.
 */
export async function sendHeldDigests(
  db: DB,
  options: { supportEmail: string; compose: (digest: HeldDigest, locale: string) => MailText },
  now = currentTime(),
): Promise<number> {
  return sendModeratorDigest(
    db,
    {
      kind: "held-digest",
      supportEmail: options.supportEmail,
      sentIn: { table: "listing_holds", column: "digestMailedAt" },
      unsent: (trx) =>
        trx
          .selectFrom("listing_holds")
          .innerJoin("listings", "listings.id", "listing_holds.listingId")
          .select(["listing_holds.id", "listing_holds.listingId", "listings.title", "listing_holds.heldAt", "signals"])
          .where("listing_holds.decidedAt", "is", null)
          .where("listing_holds.digestMailedAt", "is", null)
          .where("listings.status", "=", PENDING_STATUS)
          .orderBy("listing_holds.heldAt")
          .execute(),
      compose: async (_trx, rows) => {
        const digest: HeldDigest = {
          holds: rows.map((r) => ({
            listingId: r.listingId,
            title: r.title,
            heldAt: r.heldAt,
            signals: parseHoldSignals(r.signals),
          })),
        };
        return (locale) => options.compose(digest, locale);
      },
    },
    now,
  );
}
