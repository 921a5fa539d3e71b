import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { fail, type PhotoCode, type Result, type UploadCode } from "~/schemas/result";
import type { PhotoStorage } from "~/storage/storage.server";
import { photoUrl } from "./listing.server";
import { removePhotoFiles, storePhoto } from "./photo.server";
import { attachFingerprints, deleteUploadFingerprints } from "./photo-copies.server";

/**
 * Photos uploaded by the browser before the listing exists are stored with
 * listingId null (ADR 009). Posting or editing a listing claims them.
 */

/**
 * Attaches the owner's unattached uploads to a listing, in the given order
 * from `firstPosition`. Returns how many were attached: fewer than asked means
 * some ids were not the owner's, already attached, or gone (the caller refuses).
 */
export async function attachUploads(
  db: DB,
  ownerId: string,
  listingId: number,
  uploadIds: string[],
  firstPosition: number,
): Promise<number> {
  let attached = 0;
  const ids = [...new Set(uploadIds)];
  for (const [i, id] of ids.entries()) {
    const result = await db
      .updateTable("listing_photos")
      .set({ listingId, position: firstPosition + i })
      .where("id", "=", id)
      .where("userId", "=", ownerId)
      .where("listingId", "is", null)
      .executeTakeFirst();
    attached += Number(result.numUpdatedRows);
  }
  // Fewer attached than asked rolls the caller's transaction back, so all may be moved.
  await attachFingerprints(db, ownerId, listingId, ids);
  return attached;
}

/** How many of these ids are the owner's unattached uploads (checked before processing anything). */
export async function countClaimableUploads(db: DB, ownerId: string, uploadIds: string[]): Promise<number> {
  const ids = [...new Set(uploadIds)];
  if (ids.length === 0) return 0;
  const row = await db
    .selectFrom("listing_photos")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("id", "in", ids)
    .where("userId", "=", ownerId)
    .where("listingId", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The owner's unattached uploads among `ids`, in that order, as the picker shows
 * them (thumbnail: the smallest variant); ids not theirs or claimed already are left out.
 */
export async function findOwnUploads(db: DB, ownerId: string, ids: string[]): Promise<UploadedPhoto[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await db
    .selectFrom("listing_photos")
    .select(["id", "width", "height", "variants"])
    .where("id", "in", unique)
    .where("userId", "=", ownerId)
    .where("listingId", "is", null)
    .execute();
  return unique.flatMap((id) => {
    const row = rows.find((r) => r.id === id);
    const smallest = row ? (JSON.parse(row.variants) as { key: string }[])[0] : undefined;
    return row && smallest ? [{ id, url: photoUrl(smallest.key), width: row.width, height: row.height }] : [];
  });
}

/** Unattached uploads older than this are removed (ADR 009). */
export const UPLOAD_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const CLEAN_UP_BATCH = 200;

/** What the browser needs to show an upload and claim it later. */
export type UploadedPhoto = { id: string; url: string; width: number; height: number };

/**
 * Validates an image by its content and stores it, unattached, for this user.
 * The thumbnail URL is the smallest (400 px) variant.
 */
export async function uploadPhoto(
  db: DB,
  storage: PhotoStorage,
  userId: string,
  data: Buffer,
  now = currentTime(),
): Promise<Result<PhotoCode, { photo: UploadedPhoto }>> {
  const result = await storePhoto(db, storage, { userId, listingId: null, position: 0, alt: null, data, now });
  if (!result.ok) return result;
  const { id, width, height, variants } = result.photo;
  return { ok: true, photo: { id, url: photoUrl(variants[0].key), width, height } };
}

/**
 * Removes one of the user's own uploads that no listing has claimed yet.
 * The conditions sit in the DELETE itself, so an upload claimed at the same
 * moment is never removed. "photo.not_found" when there was nothing to remove.
 */
export async function deleteOwnUpload(
  db: DB,
  storage: PhotoStorage,
  userId: string,
  photoId: string,
): Promise<Result<UploadCode>> {
  const removed = await removeUploads(db, storage, [photoId], userId);
  return removed > 0 ? { ok: true } : fail("photo.not_found");
}

/**
 * Removes the uploads of `ids` (only `userId`'s, when given) that are still
 * unattached: rows first, then their fingerprints and files. Returns how many.
 */
async function removeUploads(db: DB, storage: PhotoStorage, ids: string[], userId?: string): Promise<number> {
  const rows = await db
    .deleteFrom("listing_photos")
    .where("id", "in", ids)
    .$if(userId !== undefined, (qb) => qb.where("userId", "=", userId as string))
    .where("listingId", "is", null)
    .returning(["id", "variants"])
    .execute();
  await deleteUploadFingerprints(
    db,
    rows.map((r) => r.id),
  );
  await removePhotoFiles(storage, rows);
  return rows.length;
}

/** Removes unattached uploads older than a day, rows first, then their files. Returns how many. */
export async function removeStaleUploads(db: DB, storage: PhotoStorage, now = currentTime()): Promise<number> {
  const cutoff = new Date(now.getTime() - UPLOAD_MAX_AGE_MS).toISOString();
  let removed = 0;
  for (;;) {
    const stale = await db
      .selectFrom("listing_photos")
      .select("id")
      .where("listingId", "is", null)
      .where("createdAt", "<", cutoff)
      .limit(CLEAN_UP_BATCH)
      .execute();
    if (stale.length === 0) return removed;
    removed += await removeUploads(
      db,
      storage,
      stale.map((r) => r.id),
    );
    if (stale.length < CLEAN_UP_BATCH) return removed;
  }
}
