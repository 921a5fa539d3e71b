import { invalidatePublicPages } from "~/cache/invalidation.server";
import type { DB } from "~/db/db.server";
import { lockListing } from "~/db/locks.server";
import { currentTime } from "~/lib/clock";
import { confirmedAt } from "~/lib/days-left";
import { inTransaction } from "./in-transaction.server";

/**
 * 'Already let? Tell us' (issue 13, point 5; ADR 057): students who called and
 * heard the place is taken say so. One report per browser per listing; two from
 * different networks within 7 days, since the owner last confirmed, mark the
 * listing's availability unconfirmed until the owner confirms again. It never
 * hides a listing by itself, and it is not an abuse report.
 */
export const NETWORKS_TO_UNCONFIRM = 2;
export const LET_REPORT_WINDOW_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

export type LetReporter = { visitorKey: string; originGroup: string };

export type LetReportOutcome =
  | {
      ok: true;
      /** This browser had told us already: nothing new was counted. */
      repeated: boolean;
      /** This report made the listing unconfirmed (the owner is to be asked once). */
      unconfirmedNow: boolean;
    }
  | { ok: false; code: "listing.not_found" };

export async function reportAlreadyLet(
  db: DB,
  listingId: number,
  reporter: LetReporter,
  now = currentTime(),
): Promise<LetReportOutcome> {
  const at = now.toISOString();
  return inTransaction(db, async (trx): Promise<LetReportOutcome> => {
    // Two answers at once from two networks: the second must see the first's row.
    await lockListing(trx, listingId);
    const listing = await trx
      .selectFrom("listings")
      .select(["expiresAt", "unconfirmedSince"])
      .where("id", "=", listingId)
      .where("status", "=", "active")
      .where("expiresAt", ">", at)
      .executeTakeFirst();
    if (!listing) return { ok: false, code: "listing.not_found" };
    const inserted = await trx
      .insertInto("let_reports")
      .values({ listingId, visitorKey: reporter.visitorKey, originGroup: reporter.originGroup, createdAt: at })
      .onConflict((oc) => oc.columns(["listingId", "visitorKey"]).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0)
      return { ok: true, repeated: true, unconfirmedNow: false };
    if (listing.unconfirmedSince) return { ok: true, repeated: false, unconfirmedNow: false };
    // Reports since the last confirmation and within the week, from different networks.
    const since = new Date(
      Math.max(now.getTime() - LET_REPORT_WINDOW_DAYS * DAY_MS, confirmedAt(listing.expiresAt).getTime()),
    );
    const networks = await trx
      .selectFrom("let_reports")
      .select((eb) => eb.fn.count<number | string>("originGroup").distinct().as("n"))
      .where("listingId", "=", listingId)
      .where("createdAt", ">", since.toISOString())
      .executeTakeFirstOrThrow();
    if (Number(networks.n) < NETWORKS_TO_UNCONFIRM) return { ok: true, repeated: false, unconfirmedNow: false };
    const marked = await trx
      .updateTable("listings")
      .set({ unconfirmedSince: at })
      .where("id", "=", listingId)
      .where("unconfirmedSince", "is", null)
      .executeTakeFirst();
    const unconfirmedNow = Number(marked.numUpdatedRows) === 1;
    // Its page now says so, and it sinks in every list (ADR 059): cached copies go.
    if (unconfirmedNow) await invalidatePublicPages(trx, [listingId], now);
    return { ok: true, repeated: false, unconfirmedNow };
  });
}

/** The owner to ask, in their language, when a listing becomes unconfirmed. */
export async function letReportOwner(
  db: DB,
  listingId: number,
): Promise<{ title: string; email: string; name: string; locale: string; expiresAt: string } | null> {
  const row = await db
    .selectFrom("listings")
    .innerJoin("users", "users.id", "listings.userId")
    .select(["listings.title", "listings.expiresAt", "users.email", "users.name", "users.locale"])
    .where("listings.id", "=", listingId)
    .executeTakeFirst();
  return row ?? null;
}
