import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { PENDING_STATUS } from "~/schemas/listing-status";
import { type HoldSignal, parseHoldSignals } from "~/schemas/review-hold";
import { enqueueMail, type MailText } from "./outbox.server";
import { MODERATOR_MAIL_INTERVAL_MS, moderatorRecipients } from "./report.server";

/** The listings one 'held for review' digest names, oldest hold first. */
export type HeldDigest = { holds: { listingId: number; title: string; heldAt: string; signals: HoldSignal[] }[] };

class HeldDigestRace extends Error {}

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
  const due = new Date(now.getTime() - MODERATOR_MAIL_INTERVAL_MS).toISOString();
  const at = now.toISOString();
  return db
    .transaction()
    .execute(async (trx) => {
      const last = await trx
        .selectFrom("listing_holds")
        .select((eb) => eb.fn.max("digestMailedAt").as("at"))
        .executeTakeFirst();
      if (last?.at && last.at > due) return 0;
      const rows = await trx
        .selectFrom("listing_holds")
        .innerJoin("listings", "listings.id", "listing_holds.listingId")
        .select(["listing_holds.id", "listing_holds.listingId", "listings.title", "listing_holds.heldAt", "signals"])
        .where("listing_holds.decidedAt", "is", null)
        .where("listing_holds.digestMailedAt", "is", null)
        .where("listings.status", "=", PENDING_STATUS)
        .orderBy("listing_holds.heldAt")
        .execute();
      if (rows.length === 0) return 0;
      const marked = await trx
        .updateTable("listing_holds")
        .set({ digestMailedAt: at })
        .where(
          "id",
          "in",
          rows.map((r) => r.id),
        )
        .where("digestMailedAt", "is", null)
        .executeTakeFirst();
      // Another run got there first.
      if (Number(marked.numUpdatedRows) !== rows.length) throw new HeldDigestRace();
      const digest: HeldDigest = {
        holds: rows.map((r) => ({
          listingId: r.listingId,
          title: r.title,
          heldAt: r.heldAt,
          signals: parseHoldSignals(r.signals),
        })),
      };
      for (const { email, locale } of await moderatorRecipients(trx, options.supportEmail))
        await enqueueMail(trx, { kind: "held-digest", to: email, ...options.compose(digest, locale) }, now);
      return rows.length;
    })
    .catch((error: unknown) => {
      if (error instanceof HeldDigestRace) return 0;
      throw error;
    });
}
