import { invalidatePublicPages } from "~/cache/invalidation.server";
import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { expiryFrom } from "~/lib/days-left";
import { fail, type MyListingCode, type Result } from "~/schemas/result";
import { LET_STATUS } from "./listing.server";
import { DELETED_STATUS, ownListing } from "./owner-listings.server";

/**
 * A listing's availability (issue 13, ADR 056): renewing, 'Still available'
 * and 'No longer available', from My Ads or from a reminder email's link.
 */

/**
 * Who is changing a listing's availability: its owner, signed in (only their own
 * listings), or the holder of a signed reminder link for that listing (ADR 056).
 */
export type AvailabilityActor = { userId: string } | { link: true };

/** The listing's row as the actor may change it (never a deleted one). */
function listingOf(db: DB, id: number, actor: AvailabilityActor) {
  return "userId" in actor
    ? ownListing(db, actor.userId, id)
    : db.selectFrom("listings").where("id", "=", id).where("status", "!=", DELETED_STATUS);
}

/**
 * Gives the listing another 30 days from now: renewing an expired ad,
 * 'Still available' on an active one, bringing back one said to be let
 * (issue 13: confirming availability and renewing are the same act). A listing
 * hidden by a moderator stays hidden; a pending one stays pending (renewal is
 * no way around review).
 */
export async function confirmListing(
  db: DB,
  actor: AvailabilityActor,
  id: number,
  now = currentTime(),
): Promise<Result<MyListingCode, { expiresAt: string; title: string }>> {
  const row = await listingOf(db, id, actor).select(["status", "title"]).executeTakeFirst();
  if (!row) return fail("listing.not_found");
  if (row.status === "hidden") return fail("listing.hidden");
  const expiresAt = expiryFrom(now);
  const updated = await db
    .updateTable("listings")
    .set({
      expiresAt,
      status: row.status === "pending" ? "pending" : "active",
      // Confirmed: students' 'already let' reports before now no longer count (ADR 056).
      unconfirmedSince: null,
      updatedAt: now.toISOString(),
    })
    .where("id", "=", id)
    // A moderator hiding it in the meantime wins.
    .where("status", "=", row.status)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return fail("listing.hidden");
  await invalidatePublicPages(db, [id], now);
  return { ok: true, expiresAt, title: row.title };
}

/** Renew from My Ads: the owner's own listing only. */
export function renewOwnerListing(db: DB, userId: string, id: number, now = currentTime()) {
  return confirmListing(db, { userId }, id, now);
}

/**
 * 'No longer available' (issue 13): out of browse at once, its page says so,
 * and 'Still available' brings it back. Only an ad that is up (active or
 * expired) can be marked; hidden and pending ones keep their state.
 */
export async function markListingLet(
  db: DB,
  actor: AvailabilityActor,
  id: number,
  now = currentTime(),
): Promise<Result<MyListingCode, { title: string }>> {
  const row = await listingOf(db, id, actor).select(["status", "title"]).executeTakeFirst();
  if (!row) return fail("listing.not_found");
  if (row.status === LET_STATUS) return { ok: true, title: row.title };
  if (row.status !== "active" && row.status !== "expired") return fail("listing.hidden");
  const updated = await db
    .updateTable("listings")
    .set({ status: LET_STATUS, updatedAt: now.toISOString() })
    .where("id", "=", id)
    .where("status", "=", row.status)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return fail("listing.hidden");
  await invalidatePublicPages(db, [id], now);
  return { ok: true, title: row.title };
}

/** 'No longer available' from My Ads: the owner's own listing only. */
export function markOwnerListingLet(db: DB, userId: string, id: number, now = currentTime()) {
  return markListingLet(db, { userId }, id, now);
}
