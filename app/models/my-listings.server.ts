import type { DB } from "../db/db.server";
import { daysLeft, expiryFrom } from "../lib/days-left";
import type { PhotoStorage } from "../storage/storage.server";
import { deleteListingPhotoRows, removePhotoFiles } from "./photo.server";
import { lockOwner } from "../db/locks.server";
import { invalidatePublicPages } from "../cache/invalidation.server";
import { currentTime } from "../lib/clock";

export type OwnerListingStatus = "active" | "expired" | "pending" | "hidden";

export type OwnerListing = {
  id: number;
  slug: string;
  title: string;
  status: OwnerListingStatus;
  createdAt: string;
  expiresAt: string;
  daysLeft: number;
  views: number;
  /** Why a moderator hid it (status 'hidden'), shown to the owner. */
  hiddenReason: string | null;
};

/** An 'active' row whose expiry has passed is expired to its owner too, before any job marks it. */
function statusNow(status: string, expiresAt: string, now: Date): OwnerListingStatus {
  if (status === "hidden" || status === "pending") return status;
  if (status === "expired" || new Date(expiresAt).getTime() <= now.getTime()) return "expired";
  return "active";
}

/** The owner's own listings, newest first, whatever their status (the My Ads list). */
export async function listOwnerListings(db: DB, userId: string, now = currentTime()): Promise<OwnerListing[]> {
  const rows = await db
    .selectFrom("listings")
    .select(["id", "slug", "title", "status", "createdAt", "expiresAt", "views", "hiddenReason"])
    .where("userId", "=", userId)
    .where("status", "!=", DELETED_STATUS)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((row) => {
    const status = statusNow(row.status, row.expiresAt, now);
    return {
      id: row.id,
      slug: row.slug,
      title: row.title,
      status,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
      daysLeft: status === "expired" ? 0 : daysLeft(row.expiresAt, now),
      views: Number(row.views),
      hiddenReason: status === "hidden" ? row.hiddenReason : null,
    };
  });
}

/** One of the owner's listings (for the delete confirmation), or null when it is not theirs. */
export async function findOwnerListing(
  db: DB,
  userId: string,
  id: number,
): Promise<{ id: number; title: string } | null> {
  const row = await db
    .selectFrom("listings")
    .select(["id", "title"])
    .where("id", "=", id)
    .where("userId", "=", userId)
    .where("status", "!=", DELETED_STATUS)
    .executeTakeFirst();
  return row ?? null;
}

export type DeleteOwnerListingResult = { ok: true } | { ok: false; reason: "not-found" };

/** A listing whose owner deleted it while it was reported or hidden: kept for moderators only (ADR 020). */
export const DELETED_STATUS = "deleted";

/**
 * Deletes the owner's listing, in one transaction under the owner's lock (the
 * same lock as posting and editing). A listing with reports, or hidden, is
 * kept as evidence for moderators ("soft delete": status 'deleted', gone from
 * every public view and from the owner's list and count, reports and photos
 * kept); any other goes with its photos (rows, then files after the commit).
 * Someone else's listing is "not found".
 */
export async function deleteOwnerListing(
  db: DB,
  storage: PhotoStorage,
  userId: string,
  id: number,
  now = currentTime(),
): Promise<DeleteOwnerListingResult> {
  const outcome = await db.transaction().execute(async (trx) => {
    await lockOwner(trx, userId);
    const row = await trx
      .selectFrom("listings")
      .select("status")
      .where("id", "=", id)
      .where("userId", "=", userId)
      .where("status", "!=", DELETED_STATUS)
      .executeTakeFirst();
    if (!row) return null;
    const reported = await trx
      .selectFrom("reports")
      .select("id")
      .where("listingId", "=", id)
      .limit(1)
      .executeTakeFirst();
    if (reported || row.status === "hidden") {
      await trx
        .updateTable("listings")
        .set({ status: DELETED_STATUS, updatedAt: now.toISOString() })
        .where("id", "=", id)
        .execute();
      await invalidatePublicPages(trx, [id], now);
      return { kept: true, photos: [] };
    }
    const photos = await deleteListingPhotoRows(trx, id);
    await trx.deleteFrom("listings").where("id", "=", id).where("userId", "=", userId).execute();
    await invalidatePublicPages(trx, [id], now);
    return { kept: false, photos };
  });
  if (!outcome) return { ok: false, reason: "not-found" };
  // A failed file removal only leaves an orphan file (the daily sweep takes it).
  await removePhotoFiles(storage, outcome.photos);
  return { ok: true };
}

export type RenewOwnerListingResult = { ok: true; expiresAt: string } | { ok: false; reason: "not-found" | "hidden" };

/**
 * Gives the owner's listing another 30 days from now. A listing hidden by a
 * moderator stays hidden; a pending one stays pending (renewal is no way
 * around review).
 */
export async function renewOwnerListing(
  db: DB,
  userId: string,
  id: number,
  now = currentTime(),
): Promise<RenewOwnerListingResult> {
  const row = await db
    .selectFrom("listings")
    .select("status")
    .where("id", "=", id)
    .where("userId", "=", userId)
    .executeTakeFirst();
  if (!row || row.status === DELETED_STATUS) return { ok: false, reason: "not-found" };
  if (row.status === "hidden") return { ok: false, reason: "hidden" };
  const expiresAt = expiryFrom(now);
  const updated = await db
    .updateTable("listings")
    .set({ expiresAt, status: row.status === "pending" ? "pending" : "active", updatedAt: now.toISOString() })
    .where("id", "=", id)
    .where("userId", "=", userId)
    // A moderator hiding it in the meantime wins.
    .where("status", "=", row.status)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return { ok: false, reason: "hidden" };
  await invalidatePublicPages(db, [id], now);
  return { ok: true, expiresAt };
}
