import sharp, { type Metadata } from "sharp";
import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { PUBLIC_PHOTO_STATUSES, statusIn } from "~/schemas/listing-status";
import { fail, type PhotoCode, type Result } from "~/schemas/result";
import type { PhotoStorage } from "~/storage/storage.server";
import type { PhotoVariant } from "./listing-summary.server";
import { markFingerprintsRemoved, recordFingerprint } from "./photo-copies.server";
import { fingerprintImage, type PhotoFingerprint } from "./photo-fingerprint.server";

/** The uploader rejects images wider or taller than this. */
export const MAX_PHOTO_SIDE = 4000;
/** Checked before decoding, so a tiny file that claims huge dimensions (a decompression bomb) is refused. */
const MAX_INPUT_PIXELS = MAX_PHOTO_SIDE * MAX_PHOTO_SIDE;
export const PHOTO_WIDTHS = [400, 800, 1200] as const;
const WEBP_QUALITY = 75;
/** Raster formats a phone or camera produces; SVG and PDF are documents, not photos. */
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "gif", "avif", "heif", "tiff"]);

export type ProcessedVariant = { width: number; height: number; bytes: number; data: Buffer };

/** A photo ready to store: its WebP variants, smallest first, and the fingerprint of the largest (ADR 074). */
export type ProcessedPhoto = { variants: ProcessedVariant[]; fingerprint: PhotoFingerprint | null };

export type ProcessPhotoResult = Result<PhotoCode, ProcessedPhoto>;

/**
 * Validates an upload by its content and turns it into WebP variants,
 * smallest first. Output carries no metadata at all (sharp writes none unless
 * asked), so EXIF and GPS from the phone never reach the public. The
 * fingerprint is taken from the largest variant, the file a later
 * fingerprinting (the `photo-fingerprints` job) reads too.
 */
export async function processPhoto(input: Buffer): Promise<ProcessPhotoResult> {
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" } as const;
  let metadata: Metadata;
  try {
    // Reading the header decodes no pixels, so it runs without the pixel limit
    // and an oversized image gets the more useful message.
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    return fail("photo.invalid");
  }
  if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format) || !metadata.width || !metadata.height) {
    return fail("photo.invalid");
  }
  if (metadata.width > MAX_PHOTO_SIDE || metadata.height > MAX_PHOTO_SIDE) {
    return fail("photo.dimensions_too_large");
  }
  const uprightWidth = metadata.autoOrient?.width ?? metadata.width;
  const largest = Math.min(uprightWidth, PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1]);
  const widths = [...PHOTO_WIDTHS.filter((w) => w < largest), largest];

  try {
    const upright = sharp(input, options).autoOrient();
    const variants = await Promise.all(
      widths.map(async (width) => {
        const { data, info } = await upright
          .clone()
          .resize({ width, withoutEnlargement: true })
          .webp({ quality: WEBP_QUALITY })
          .toBuffer({ resolveWithObject: true });
        return { width: info.width, height: info.height, bytes: data.length, data };
      }),
    );
    const fingerprint = await fingerprintImage(variants[variants.length - 1].data);
    return { ok: true, variants, fingerprint };
  } catch {
    // Headers can parse while the pixel data is truncated or corrupt.
    return fail("photo.invalid");
  }
}

export function variantKey(photoId: string, width: number): string {
  return `${photoId}-${width}.webp`;
}

export type StoredPhoto = {
  id: string;
  listingId: number | null;
  position: number;
  width: number;
  height: number;
  bytes: number;
  variants: PhotoVariant[];
  alt: string | null;
};

export type StorePhotoInput = {
  userId: string;
  listingId: number | null;
  position: number;
  alt: string | null;
  now?: Date;
};

/**
 * Writes already processed variants under keys named after a new photo id and
 * records the photo, with its fingerprint (marked seeded for demo photos).
 * Files come first: a row never points at missing files, and if the rows
 * cannot be written the files are removed again.
 */
export async function storeProcessedPhoto(
  db: DB,
  storage: PhotoStorage,
  input: StorePhotoInput & ProcessedPhoto & { seeded?: boolean },
): Promise<StoredPhoto> {
  const id = crypto.randomUUID();
  const sorted = [...input.variants].sort((a, b) => a.width - b.width);
  const variants: PhotoVariant[] = sorted.map((v) => ({
    width: v.width,
    height: v.height,
    bytes: v.bytes,
    key: variantKey(id, v.width),
  }));
  await Promise.all(sorted.map((v, i) => storage.put(variants[i].key, v.data)));
  const largest = variants[variants.length - 1];
  const photo: StoredPhoto = {
    id,
    listingId: input.listingId,
    position: input.position,
    width: largest.width,
    height: largest.height,
    bytes: largest.bytes,
    variants,
    alt: input.alt,
  };
  try {
    // The fingerprint first: should the photo's row fail, a fingerprint of no listing matches nothing.
    if (input.fingerprint) {
      const { userId, listingId, fingerprint, seeded, now } = input;
      await recordFingerprint(db, { photoId: id, listingId, userId, fingerprint, seeded, now });
    }
    await db
      .insertInto("listing_photos")
      .values({
        id,
        listingId: input.listingId,
        userId: input.userId,
        position: input.position,
        width: photo.width,
        height: photo.height,
        bytes: photo.bytes,
        variants: JSON.stringify(variants),
        alt: input.alt,
        createdAt: (input.now ?? currentTime()).toISOString(),
      })
      .execute();
  } catch (error) {
    await Promise.allSettled(variants.map((v) => storage.remove(v.key)));
    throw error;
  }
  return photo;
}

/** Validates, processes and stores one uploaded image. */
export async function storePhoto(
  db: DB,
  storage: PhotoStorage,
  input: StorePhotoInput & { data: Buffer },
): Promise<Result<PhotoCode, { photo: StoredPhoto }>> {
  const processed = await processPhoto(input.data);
  if (!processed.ok) return processed;
  const { userId, listingId, position, alt, now } = input;
  const photo = await storeProcessedPhoto(db, storage, {
    userId,
    listingId,
    position,
    alt,
    now,
    variants: processed.variants,
    fingerprint: processed.fingerprint,
  });
  return { ok: true, photo };
}

/**
 * A photo owns only the files named after its own id. Synthetic load-test
 * photos point at a shared pool of files named after other ids, so deleting
 * them never removes a file another photo still shows.
 */
function ownedKeys(photoId: string, variantsJson: string): string[] {
  try {
    const variants = JSON.parse(variantsJson) as PhotoVariant[];
    return variants.map((v) => v.key).filter((key) => typeof key === "string" && key.startsWith(`${photoId}-`));
  } catch {
    return [];
  }
}

/** Removes the files of photo rows already deleted (a failed file removal only leaves an orphan file). */
export async function removePhotoFiles(storage: PhotoStorage, rows: { id: string; variants: string }[]): Promise<void> {
  await Promise.allSettled(rows.flatMap((r) => ownedKeys(r.id, r.variants)).map((key) => storage.remove(key)));
}

/**
 * Removes a listing's photo rows (in the caller's transaction, if any) and returns them, for removePhotoFiles after it.
 * Their fingerprints stay, marked removed (ADR 074).
 */
export async function deleteListingPhotoRows(
  db: DB,
  listingId: number,
  now = currentTime(),
): Promise<{ id: string; variants: string }[]> {
  const rows = await db
    .selectFrom("listing_photos")
    .select(["id", "variants"])
    .where("listingId", "=", listingId)
    .execute();
  if (rows.length === 0) return rows;
  await markFingerprintsRemoved(db, { listingId }, now);
  await db
    .deleteFrom("listing_photos")
    .where(
      "id",
      "in",
      rows.map((r) => r.id),
    )
    .execute();
  return rows;
}

/** Removes a listing's photo rows, then their files (a failed file removal only leaves an orphan file). */
export async function deleteListingPhotos(db: DB, storage: PhotoStorage, listingId: number): Promise<number> {
  const rows = await deleteListingPhotoRows(db, listingId);
  await removePhotoFiles(storage, rows);
  return rows.length;
}

/** Who may see a photo: anyone (its listing is public), or its owner and moderators only. */
export type PhotoVisibility = { kind: "public" } | { kind: "owner"; userId: string };

/**
 * A photo of a listing whose page the public sees (a 'let' one too) is
 * public; one of a hidden, pending or deleted listing, or an upload not yet
 * part of a listing, is its owner's (and moderators') alone (ADR 020, 063).
 */
export async function photoVisibility(db: DB, photoId: string): Promise<PhotoVisibility> {
  const row = await db
    .selectFrom("listing_photos")
    .leftJoin("listings", "listings.id", "listing_photos.listingId")
    .select(["listing_photos.userId as userId", "listing_photos.listingId as listingId", "listings.status as status"])
    .where("listing_photos.id", "=", photoId)
    .executeTakeFirst();
  // No row of that id: a file a row names under another id (the synthetic seed's shared
  // pool), or an orphan the daily sweep removes. Neither belongs to a hidden listing.
  if (!row) return { kind: "public" };
  if (row.listingId !== null && row.status !== null && statusIn(PUBLIC_PHOTO_STATUSES, row.status))
    return { kind: "public" };
  return { kind: "owner", userId: row.userId };
}
