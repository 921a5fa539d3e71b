import { randomUUID } from "node:crypto";
import { invalidatePublicPages } from "~/cache/invalidation.server";
import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { expiryFrom } from "~/lib/days-left";
import { LISTED_STATUS, PENDING_STATUS } from "~/schemas/listing-status";
import { type HoldSignal, parseHoldSignals } from "~/schemas/review-hold";
import { type Actor, audit } from "./audit-log.server";
import { inTransaction } from "./in-transaction.server";
import { hiddenColumns, nextStateVersion } from "./listing-hide.server";
import { listingsWithOwner, OWNER_MAIL_COLUMNS, type OwnerAddress } from "./listing-owner.server";
import { changed, type ModerationResult, moderate, refuse, refuseUnchanged } from "./moderation-action.server";
import { enqueueMail, type MailText } from "./outbox.server";

/**
 * Listings held for review (ADR 078). A trust check that finds something
 * calls `holdForReview`: the listing becomes 'pending' (its owner sees it in
 * My Ads, nobody else) with an open hold that carries what was found; a
 * moderator approves it (published for a fresh 30 days) or rejects it (hidden
 * by 'moderator' with the reason). Every step writes its audit row in the same
 * transaction; the decisions are conditional, so of two moderators one wins.
 */

export type HoldOutcome =
  /** Newly held: was active, or pending without an open hold. */
  | "held"
  /** Already held: the latest checks' signals replace the earlier ones. */
  | "updated"
  /** Neither active nor pending (expired, let, hidden, deleted) or no such listing: nothing to hold. */
  | "not-holdable";

/** The open hold of a listing (at most one: every hold is opened here or by `reopenHold`, which check first). */
function openHold(db: DB, listingId: number) {
  return db
    .selectFrom("listing_holds")
    .select(["id", "signals"])
    .where("listingId", "=", listingId)
    .where("decidedAt", "is", null);
}

async function insertHold(db: DB, listingId: number, signals: string, at: string) {
  await db
    .insertInto("listing_holds")
    .values({
      id: randomUUID(),
      listingId,
      signals,
      heldAt: at,
      decidedAt: null,
      decision: null,
      decidedBy: null,
      decisionReason: null,
      digestMailedAt: null,
    })
    .execute();
}

/**
 * Holds a listing for review with what the checks found: an active one (a new
 * ad, or an edit of a live ad that trips a check) becomes 'pending' and leaves
 * every public page at once. Calling it again while the hold is open replaces
 * its signals (they describe the listing as it is now). Runs in the caller's
 * transaction when given one, so posting and holding commit together.
 */
export async function holdForReview(
  db: DB,
  listingId: number,
  signals: readonly HoldSignal[],
  now = currentTime(),
): Promise<HoldOutcome> {
  return inTransaction(db, async (trx) => {
    const at = now.toISOString();
    const json = JSON.stringify(signals);
    const moved = await trx
      .updateTable("listings")
      .set((eb) => ({ status: PENDING_STATUS, stateVersion: nextStateVersion(eb), updatedAt: at }))
      .where("id", "=", listingId)
      .where("status", "=", LISTED_STATUS)
      .executeTakeFirst();
    if (!changed(moved)) {
      const row = await trx.selectFrom("listings").select("status").where("id", "=", listingId).executeTakeFirst();
      if (row?.status !== PENDING_STATUS) return "not-holdable";
    }
    const open = await openHold(trx, listingId).executeTakeFirst();
    if (open) await trx.updateTable("listing_holds").set({ signals: json }).where("id", "=", open.id).execute();
    else await insertHold(trx, listingId, json, at);
    if (changed(moved)) await invalidatePublicPages(trx, [listingId], now);
    if (open && !changed(moved)) return "updated";
    await audit(trx, null, "listing.hold", { type: "listing", id: listingId }, null, at);
    return "held";
  });
}

/**
 * A restore that puts a rejected listing back to 'pending' (its state before
 * the hide) puts it back in the queue: a new open hold with the last hold's
 * signals. Called inside the restore's transaction.
 */
export async function reopenHold(db: DB, listingId: number, at: string): Promise<void> {
  if (await openHold(db, listingId).executeTakeFirst()) return;
  const last = await db
    .selectFrom("listing_holds")
    .select("signals")
    .where("listingId", "=", listingId)
    .orderBy("heldAt", "desc")
    .limit(1)
    .executeTakeFirst();
  await insertHold(db, listingId, last?.signals ?? "[]", at);
}

/** What the owner is told about a decision, in their preferred language (composed in app/mail/). */
export type HoldDecisionNotice = OwnerAddress & {
  decision: "approved" | "rejected";
  listing: { id: number; slug: string; title: string };
  /** What the checks found (the owner reads a sentence for each). */
  signals: HoldSignal[];
  /** The moderator's reason; required to reject. */
  reason: string | null;
};

export type DecisionMail = (notice: HoldDecisionNotice) => MailText;

async function decide(
  db: DB,
  actor: Actor,
  listingId: number,
  decision: HoldDecisionNotice["decision"],
  reason: string | null,
  compose: DecisionMail,
  now: Date,
): Promise<ModerationResult> {
  return moderate(db, now, async (trx, at) => {
    const listing = await listingsWithOwner(trx)
      .select(["listings.slug", "listings.title", "users.status as ownerStatus", ...OWNER_MAIL_COLUMNS])
      .where("listings.id", "=", listingId)
      .executeTakeFirst();
    if (!listing) refuse("moderation.not_found");
    // Same rule as a restore: nothing of a suspended owner's goes up.
    if (decision === "approved" && listing.ownerStatus === "suspended") refuse("moderation.owner_suspended");
    const hold = await openHold(trx, listingId).executeTakeFirst();
    if (!hold) refuse("moderation.conflict");
    // Conditional on the hold still open: of two moderators deciding at once, one changes it.
    const closed = await trx
      .updateTable("listing_holds")
      .set({ decidedAt: at, decision, decidedBy: actor?.id ?? null, decisionReason: reason })
      .where("id", "=", hold.id)
      .where("decidedAt", "is", null)
      .executeTakeFirst();
    if (!changed(closed)) refuse("moderation.conflict");
    const updated = await trx
      .updateTable("listings")
      .set(
        decision === "approved"
          ? (eb) => ({
              status: LISTED_STATUS,
              expiresAt: expiryFrom(now),
              stateVersion: nextStateVersion(eb),
              updatedAt: at,
            })
          : hiddenColumns("moderator", reason ?? "", at),
      )
      .where("id", "=", listingId)
      .where("status", "=", PENDING_STATUS)
      .executeTakeFirst();
    if (!changed(updated)) await refuseUnchanged(trx, "listings", listingId);
    await invalidatePublicPages(trx, [listingId], now);
    await audit(
      trx,
      actor,
      decision === "approved" ? "listing.approve" : "listing.reject",
      { type: "listing", id: listingId },
      reason,
      at,
    );
    const notice: HoldDecisionNotice = {
      decision,
      email: listing.email,
      name: listing.name,
      locale: listing.locale,
      listing: { id: listingId, slug: listing.slug, title: listing.title },
      signals: parseHoldSignals(hold.signals),
      reason,
    };
    const kind = decision === "approved" ? "listing-approved" : "listing-rejected";
    await enqueueMail(trx, { kind, to: listing.email, ...compose(notice) }, now);
  });
}

/**
 * Publishes a held listing: active for a fresh 30 days from now. Refused when
 * it is no longer held (someone decided first: a conflict) or its owner is
 * suspended. The owner is emailed, in the words `compose` writes.
 */
export function approveHeld(
  db: DB,
  actor: Actor,
  listingId: number,
  reason: string | null,
  compose: DecisionMail,
  now = currentTime(),
): Promise<ModerationResult> {
  return decide(db, actor, listingId, "approved", reason, compose, now);
}

/**
 * Rejects a held listing: hidden by a moderator with the reason (its owner
 * sees it in My Ads), kept as it was before the hide ('pending'), so a
 * restore puts it back in the queue.
 */
export function rejectHeld(
  db: DB,
  actor: Actor,
  listingId: number,
  reason: string,
  compose: DecisionMail,
  now = currentTime(),
): Promise<ModerationResult> {
  return decide(db, actor, listingId, "rejected", reason, compose, now);
}

/**
 * Listings numbered up to `upTo` that a moderator approved after `since`:
 * public only from then, so new to a search alert that had looked past their
 * number while they were held (ADR 083). Read from the holds' decidedAt index.
 */
export async function approvedSince(db: DB, since: string, upTo: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom("listing_holds")
    .select("listingId")
    .where("decidedAt", ">", since)
    .where("decision", "=", "approved")
    .where("listingId", "<=", upTo)
    .orderBy("decidedAt", "desc")
    .limit(limit)
    .execute();
  return [...new Set(rows.map((row) => row.listingId))];
}

/** The signals of each listing's open hold, for its owner's My Ads. */
export async function openHoldSignals(db: DB, listingIds: readonly number[]): Promise<Map<number, HoldSignal[]>> {
  if (listingIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("listing_holds")
    .select(["listingId", "signals"])
    .where("listingId", "in", [...listingIds])
    .where("decidedAt", "is", null)
    .execute();
  return new Map(rows.map((row) => [row.listingId, parseHoldSignals(row.signals)]));
}
