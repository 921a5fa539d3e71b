import { invalidatePublicPages } from "~/cache/invalidation.server";
import type { DB } from "~/db/db.server";
import { lockListing } from "~/db/locks.server";
import { currentTime } from "~/lib/clock";
import { confirmedAt } from "~/lib/days-left";
import { LISTED_STATUS } from "~/schemas/listing-status";
import { inTransaction } from "./in-transaction.server";
import { listingsWithOwner, OWNER_MAIL_COLUMNS, type OwnerAddress } from "./listing-owner.server";

/**
 * 'Already let? Tell us' (ADR 057, made costly by ADR 064): students who called
 * and heard the place is taken say so. One answer per browser and per account
 * per listing. An answer counts only when someone known stands behind it: a
 * signed-in account, or a browser seen opening listings at least
 * SEEN_VISITOR_HOURS before (a new cookie costs nothing). Counted answers from
 * three networks within 7 days, since the owner last confirmed, mark the
 * listing's availability unconfirmed until the owner confirms again. After a
 * confirmation nothing counts for COOL_DOWN_DAYS, and a network or account
 * whose answer counted before it never counts again for that listing. It never
 * hides a listing by itself, and it is not an abuse report.
 */
export const NETWORKS_TO_UNCONFIRM = 3;
export const LET_REPORT_WINDOW_DAYS = 7;
export const SEEN_VISITOR_HOURS = 6;
export const COOL_DOWN_DAYS = 3;
/** The owner is emailed about doubted availability at most once per listing in this many days. */
export const OWNER_MAIL_EVERY_DAYS = 7;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export type LetReporter = {
  /** Salted hash of the browser's signed visitor id (one issued with this answer has no history). */
  visitorKey: string;
  /** The signed-in account, if any. */
  userId: string | null;
  /** householdNetwork of the client address: IPv4 /24, IPv6 /56. */
  originGroup: string;
  /** False when this person already used up their counted answers for now (limit letReportCounted). */
  mayCount: boolean;
};

export type LetReportOutcome =
  | {
      ok: true;
      /** This browser or account had told us already: nothing new was stored. */
      repeated: boolean;
      /** The answer counted towards the rule (the caller uses up the reporter's allowance). */
      counted: boolean;
      /** This answer made the listing unconfirmed. */
      unconfirmedNow: boolean;
      /** The owner is to be emailed now (not more than once a week per listing). */
      askOwner: boolean;
    }
  | { ok: false; code: "listing.not_found" };

const nothing = { ok: true, repeated: false, counted: false, unconfirmedNow: false, askOwner: false } as const;

/** A browser that opened some listing at least SEEN_VISITOR_HOURS ago (its views are recorded by the server). */
async function seenBefore(trx: DB, visitorKey: string, now: Date): Promise<boolean> {
  const row = await trx
    .selectFrom("listing_views")
    .select("viewedAt")
    .where("visitorKey", "=", visitorKey)
    .where("viewedAt", "<=", new Date(now.getTime() - SEEN_VISITOR_HOURS * HOUR_MS).toISOString())
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A network or account whose counted answer came before the owner's last confirmation: it was overruled. */
async function overruled(trx: DB, listingId: number, reporter: LetReporter, confirmed: Date): Promise<boolean> {
  const row = await trx
    .selectFrom("let_reports")
    .select("listingId")
    .where("listingId", "=", listingId)
    .where("counts", "=", 1)
    .where("createdAt", "<=", confirmed.toISOString())
    .where((eb) =>
      reporter.userId === null
        ? eb("originGroup", "=", reporter.originGroup)
        : eb.or([eb("originGroup", "=", reporter.originGroup), eb("userId", "=", reporter.userId)]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether this answer counts: someone known, outside the cool-down, not overruled before. */
async function answerCounts(trx: DB, listingId: number, reporter: LetReporter, confirmed: Date, now: Date) {
  if (!reporter.mayCount) return false;
  if (now.getTime() < confirmed.getTime() + COOL_DOWN_DAYS * DAY_MS) return false;
  if (reporter.userId === null && !(await seenBefore(trx, reporter.visitorKey, now))) return false;
  return !(await overruled(trx, listingId, reporter, confirmed));
}

/** Claims the week's email to the owner about this listing; false when one went out within the week. */
async function claimOwnerMail(trx: DB, listingId: number, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const weekAgo = new Date(now.getTime() - OWNER_MAIL_EVERY_DAYS * DAY_MS).toISOString();
  const claimed = await trx
    .insertInto("let_owner_mails")
    .values({ listingId, sentAt: at })
    .onConflict((oc) =>
      oc.column("listingId").doUpdateSet({ sentAt: at }).where("let_owner_mails.sentAt", "<=", weekAgo),
    )
    .executeTakeFirst();
  return Number(claimed.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function reportAlreadyLet(
  db: DB,
  listingId: number,
  reporter: LetReporter,
  now = currentTime(),
): Promise<LetReportOutcome> {
  const at = now.toISOString();
  return inTransaction(db, async (trx): Promise<LetReportOutcome> => {
    // Answers at once from several networks: each must see the others' rows.
    await lockListing(trx, listingId);
    const listing = await trx
      .selectFrom("listings")
      .select(["expiresAt", "unconfirmedSince"])
      .where("id", "=", listingId)
      .where("status", "=", LISTED_STATUS)
      .where("expiresAt", ">", at)
      .executeTakeFirst();
    if (!listing) return { ok: false, code: "listing.not_found" };
    const repeated = { ...nothing, repeated: true };
    if (reporter.userId !== null) {
      const answered = await trx
        .selectFrom("let_reports")
        .select("listingId")
        .where("listingId", "=", listingId)
        .where("userId", "=", reporter.userId)
        .executeTakeFirst();
      if (answered) return repeated;
    }
    const confirmed = confirmedAt(listing.expiresAt);
    const counts = await answerCounts(trx, listingId, reporter, confirmed, now);
    const inserted = await trx
      .insertInto("let_reports")
      .values({
        listingId,
        visitorKey: reporter.visitorKey,
        userId: reporter.userId,
        originGroup: reporter.originGroup,
        counts: counts ? 1 : 0,
        createdAt: at,
      })
      .onConflict((oc) => oc.columns(["listingId", "visitorKey"]).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return repeated;
    if (!counts) return nothing;
    const counted = { ...nothing, counted: true };
    if (listing.unconfirmedSince) return counted;
    // Counted answers since the last confirmation and within the week, from different networks.
    const since = new Date(Math.max(now.getTime() - LET_REPORT_WINDOW_DAYS * DAY_MS, confirmed.getTime()));
    const networks = await trx
      .selectFrom("let_reports")
      .select((eb) => eb.fn.count<number | string>("originGroup").distinct().as("n"))
      .where("listingId", "=", listingId)
      .where("counts", "=", 1)
      .where("createdAt", ">", since.toISOString())
      .executeTakeFirstOrThrow();
    if (Number(networks.n) < NETWORKS_TO_UNCONFIRM) return counted;
    const marked = await trx
      .updateTable("listings")
      .set({ unconfirmedSince: at })
      .where("id", "=", listingId)
      .where("unconfirmedSince", "is", null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) return counted;
    // Its page now says so, and it sinks in every list (ADR 059): cached copies go.
    await invalidatePublicPages(trx, [listingId], now);
    return { ...counted, unconfirmedNow: true, askOwner: await claimOwnerMail(trx, listingId, now) };
  });
}

/** The owner to ask, in their language, when a listing becomes unconfirmed. */
export async function letReportOwner(
  db: DB,
  listingId: number,
): Promise<(OwnerAddress & { title: string; expiresAt: string }) | null> {
  const row = await listingsWithOwner(db)
    .select(["listings.title", "listings.expiresAt", ...OWNER_MAIL_COLUMNS])
    .where("listings.id", "=", listingId)
    .executeTakeFirst();
  return row ?? null;
}
