import { invalidatePublicPages } from "~/cache/invalidation.server";
import type { DB } from "~/db/db.server";
import { DELETED_STATUS, HIDDEN_STATUS, PENDING_STATUS } from "~/schemas/listing-status";
import { audit } from "./audit-log.server";
import { hiddenColumns, restoredColumns } from "./listing-hide.server";
import { listingsWithOwner } from "./listing-owner.server";
import { reopenHold } from "./listing-review.server";
import { changed, moderationAction, refuse, refuseUnchanged } from "./moderation-action.server";

/** Moderators hide listings from every public view and restore them. */

/** A listing's pending reports become 'reviewed' (a moderator has looked). */
async function reviewPendingReports(db: DB, listingId: number, now: string) {
  await db
    .updateTable("reports")
    .set({ status: "reviewed", updatedAt: now })
    .where("listingId", "=", listingId)
    .where("status", "=", "pending")
    .execute();
}

/**
 * Hides a listing from every public view (status 'hidden'); its owner sees
 * the reason in My Ads. Its pending reports count as reviewed.
 */
export const hideListing = moderationAction<number, string>(async (trx, { id: listingId, actor, reason, now, at }) => {
  const updated = await trx
    .updateTable("listings")
    .set(hiddenColumns("moderator", reason, at))
    .where("id", "=", listingId)
    // Deleted by its owner (kept as evidence, ADR 020): never back to hidden, so never restored.
    .where("status", "!=", DELETED_STATUS)
    // Already hidden automatically or by a suspension: a moderator's decision replaces it.
    .where((eb) =>
      eb.or([eb("status", "!=", HIDDEN_STATUS), eb("hiddenBy", "is", null), eb("hiddenBy", "!=", "moderator")]),
    )
    .executeTakeFirst();
  if (!changed(updated)) await refuseUnchanged(trx, "listings", listingId);
  await reviewPendingReports(trx, listingId, at);
  await invalidatePublicPages(trx, [listingId], now);
  await audit(trx, actor, "listing.hide", { type: "listing", id: listingId }, reason, at);
});

/**
 * Shows a hidden listing again, in the state the hide took it from (ADR 063):
 * a 'let' one stays out of browse until its owner says it is available, and
 * an active one past its expiry counts as expired. Its pending reports count as reviewed,
 * so the automatic hiding does not fire again at once. A listing of a
 * suspended owner stays hidden until the owner is reinstated. A rejected
 * held listing goes back to 'pending' and into the review queue (ADR 078).
 */
export const restoreListing = moderationAction<number, string | null>(
  async (trx, { id: listingId, actor, reason, now, at }) => {
    const listing = await listingsWithOwner(trx)
      .select(["listings.status", "users.status as ownerStatus"])
      .where("listings.id", "=", listingId)
      .executeTakeFirst();
    if (!listing) refuse("moderation.not_found");
    if (listing.ownerStatus === "suspended") refuse("moderation.owner_suspended");
    const updated = await trx
      .updateTable("listings")
      .set(restoredColumns(at))
      .where("id", "=", listingId)
      .where("status", "=", HIDDEN_STATUS)
      .executeTakeFirst();
    if (!changed(updated)) refuse("moderation.conflict");
    const restored = await trx.selectFrom("listings").select("status").where("id", "=", listingId).executeTakeFirst();
    if (restored?.status === PENDING_STATUS) await reopenHold(trx, listingId, at);
    await reviewPendingReports(trx, listingId, at);
    await invalidatePublicPages(trx, [listingId], now);
    await audit(trx, actor, "listing.restore", { type: "listing", id: listingId }, reason, at);
  },
);
