import { sql } from "kysely";
import type { DB } from "~/db/db.server";
import type { PhotoFingerprintsTable } from "~/db/schema";
import { currentTime } from "~/lib/clock";
import type { PhotoStorage } from "~/storage/storage.server";
import type { PhotoVariant } from "./listing-summary.server";
import {
  chunkProbes,
  copyDistanceOfChunks,
  fingerprintImage,
  hashChunks,
  type PhotoFingerprint,
  photoChunks,
} from "./photo-fingerprint.server";

/**
 * Photos copied from another owner's ad (ADR 074): every photo's fingerprint
 * is stored where its row is written, and `findCopiedPhotos` looks a new
 * listing's photos up among those of other owners' listings.
 */

/** A removed photo (or one of a removed listing) still counts this long: copiers wait for the real ad to go. */
export const COPY_MEMORY_DAYS = 180;
const DAY_MS = 24 * 60 * 60 * 1000;

type FingerprintColumns = Omit<
  PhotoFingerprintsTable,
  "photoId" | "listingId" | "userId" | "seeded" | "createdAt" | "removedAt"
>;

function fingerprintColumns(fingerprint: PhotoFingerprint): FingerprintColumns {
  const [chunk0, chunk1, chunk2, chunk3] = hashChunks(fingerprint.hash);
  const [mirrored0, mirrored1, mirrored2, mirrored3] = hashChunks(fingerprint.mirrored);
  return {
    hash: fingerprint.hash,
    chunk0,
    chunk1,
    chunk2,
    chunk3,
    mirrored: fingerprint.mirrored,
    mirrored0,
    mirrored1,
    mirrored2,
    mirrored3,
    exact: fingerprint.exact,
  };
}

export type FingerprintOf = {
  photoId: string;
  listingId: number | null;
  userId: string;
  fingerprint: PhotoFingerprint;
  /** Demo and synthetic photos (drawn from a dozen scenes): stored, never matched (as plain pictures: ADR 082). */
  seeded?: boolean;
  now?: Date;
};

/** The row for a photo's fingerprint (for a bulk insert). */
export function fingerprintRow(input: FingerprintOf): PhotoFingerprintsTable {
  return {
    photoId: input.photoId,
    listingId: input.listingId,
    userId: input.userId,
    seeded: input.seeded || input.fingerprint.plain ? 1 : 0,
    ...fingerprintColumns(input.fingerprint),
    createdAt: (input.now ?? currentTime()).toISOString(),
    removedAt: null,
  };
}

/** Stores a photo's fingerprint (in the caller's transaction, beside the photo's row). */
export async function recordFingerprint(db: DB, input: FingerprintOf): Promise<void> {
  await db.insertInto("photo_fingerprints").values(fingerprintRow(input)).execute();
}

/** Uploads claimed by a listing: their fingerprints now belong to it too. */
export async function attachFingerprints(db: DB, userId: string, listingId: number, photoIds: string[]): Promise<void> {
  if (photoIds.length === 0) return;
  await db
    .updateTable("photo_fingerprints")
    .set({ listingId })
    .where("photoId", "in", photoIds)
    .where("userId", "=", userId)
    .where("listingId", "is", null)
    .execute();
}

/**
 * Photos of a listing removed from it, or of a listing deleted: their
 * fingerprints still count for COPY_MEMORY_DAYS from now.
 */
export async function markFingerprintsRemoved(
  db: DB,
  which: { photoIds: string[] } | { listingId: number },
  now = currentTime(),
): Promise<void> {
  let query = db.updateTable("photo_fingerprints").set({ removedAt: now.toISOString() }).where("removedAt", "is", null);
  if ("listingId" in which) query = query.where("listingId", "=", which.listingId);
  else if (which.photoIds.length > 0) query = query.where("photoId", "in", which.photoIds);
  else return;
  await query.execute();
}

/** Uploads that never became part of a listing were never anyone's ad: their fingerprints go with them. */
export async function deleteUploadFingerprints(db: DB, photoIds: string[]): Promise<void> {
  if (photoIds.length === 0) return;
  await db.deleteFrom("photo_fingerprints").where("photoId", "in", photoIds).where("listingId", "is", null).execute();
}

/**
 * A listing's own photos' stored fingerprints, in no particular order (to
 * check a listing again without its files): those ever matched, so neither
 * demo photos nor plain pictures (ADR 082).
 */
export async function listingFingerprints(
  db: DB,
  listingId: number,
): Promise<(PhotoFingerprint & { photoId: string })[]> {
  return db
    .selectFrom("photo_fingerprints")
    .select(["photoId", "hash", "mirrored", "exact"])
    .where("listingId", "=", listingId)
    .where("removedAt", "is", null)
    .where(sql.ref("seeded"), "=", sql.lit(0))
    .execute();
}

/** One of the new photos found in another owner's listing. */
export type CopiedPhoto = {
  /** Which of the photos looked up (its index). */
  photo: number;
  /** The other listing's photo, the listing and its owner. */
  photoId: string;
  listingId: number;
  ownerId: string;
  /** Bits of 64 that differ (0: the same picture, at most MATCH_DISTANCE). */
  distance: number;
  /** The same pixels exactly. */
  exact: boolean;
  /** The photo was removed (or its listing): when; null while it is up. */
  removedAt: string | null;
  /** When the photo was stored: of two owners with the same picture, who had it first. */
  createdAt: string;
};

const CHUNKS = ["chunk0", "chunk1", "chunk2", "chunk3"] as const;

/**
 * The photos of listings of owners other than `ownerId` (up, expired, let,
 * pending or hidden, or removed within COPY_MEMORY_DAYS; never a demo one)
 * that the given photos copy, as they are or mirrored: nearest first. With
 * `ownerId` null, every owner's, theirs too (the trust checks ask who had a
 * picture first: trust-checks.server.ts).
 * Candidates are read by chunk from the indexes alone (each of the four
 * 16-bit chunks of either hash, or one bit away from it: chunkProbes) and
 * kept when their full hash is within MATCH_DISTANCE; only those rows are
 * read, for whose they are. An owner's own photos never match.
 */
export async function findCopiedPhotos(
  db: DB,
  ownerId: string | null,
  photos: PhotoFingerprint[],
  now = currentTime(),
): Promise<CopiedPhoto[]> {
  if (photos.length === 0) return [];
  const probes = CHUNKS.map((_, i) => [
    ...new Set(photos.flatMap((p) => [p.hash, p.mirrored].flatMap((hash) => chunkProbes(hashChunks(hash)[i])))),
  ]);
  const byChunk = (i: number) =>
    db
      .selectFrom("photo_fingerprints")
      .select(["photoId", "hash"])
      .where(CHUNKS[i], "in", probes[i])
      // A literal, as the partial indexes say it (migration 032): a bound 0 would not use them on SQLite.
      .where(sql.ref("seeded"), "=", sql.lit(0));
  const candidates = await byChunk(0).unionAll(byChunk(1)).unionAll(byChunk(2)).unionAll(byChunk(3)).execute();

  const parsed = photos.map(photoChunks);
  const near = new Map<string, { photo: number; distance: number }[]>();
  for (const candidate of candidates) {
    if (near.has(candidate.photoId)) continue;
    const stored = hashChunks(candidate.hash);
    const matches = parsed.flatMap((photo, index) => {
      const distance = copyDistanceOfChunks(photo, stored);
      return distance === null ? [] : [{ photo: index, distance }];
    });
    if (matches.length > 0) near.set(candidate.photoId, matches);
  }
  if (near.size === 0) return [];

  const since = new Date(now.getTime() - COPY_MEMORY_DAYS * DAY_MS).toISOString();
  const rows = await db
    .selectFrom("photo_fingerprints")
    .select(["photoId", "listingId", "userId", "exact", "removedAt", "createdAt"])
    .where("photoId", "in", [...near.keys()])
    .$if(ownerId !== null, (query) => query.where("userId", "!=", ownerId as string))
    .where("listingId", "is not", null)
    .where((eb) => eb.or([eb("removedAt", "is", null), eb("removedAt", ">=", since)]))
    .execute();
  const copies = rows.flatMap((row) =>
    (near.get(row.photoId) ?? []).map(({ photo, distance }) => ({
      photo,
      photoId: row.photoId,
      listingId: Number(row.listingId),
      ownerId: row.userId,
      distance,
      exact: row.exact === photos[photo].exact,
      removedAt: row.removedAt,
      createdAt: row.createdAt,
    })),
  );
  return copies.sort((a, b) => a.distance - b.distance || a.photo - b.photo || a.photoId.localeCompare(b.photoId));
}

/** Stored photos fingerprinted per batch by the backfill. */
const BACKFILL_BATCH = 100;

/**
 * Fingerprints the stored photos that have none (those from before migration
 * 032): reads each photo's largest file, as the upload pipeline would have
 * fingerprinted it. Photos of `seededUserIds` (the demo owners) are marked
 * seeded. A photo whose file is missing or unreadable is counted and left.
 */
export async function fingerprintStoredPhotos(
  db: DB,
  storage: PhotoStorage,
  options: { seededUserIds?: ReadonlySet<string>; now?: Date } = {},
): Promise<{ fingerprinted: number; unreadable: number }> {
  const counts = { fingerprinted: 0, unreadable: 0 };
  let after = "";
  for (;;) {
    const rows = await db
      .selectFrom("listing_photos")
      .leftJoin("photo_fingerprints", "photo_fingerprints.photoId", "listing_photos.id")
      .select(["listing_photos.id", "listing_photos.listingId", "listing_photos.userId", "listing_photos.variants"])
      .where("photo_fingerprints.photoId", "is", null)
      .where("listing_photos.id", ">", after)
      .orderBy("listing_photos.id")
      .limit(BACKFILL_BATCH)
      .execute();
    if (rows.length === 0) return counts;
    after = rows[rows.length - 1].id;
    for (const row of rows) {
      const fingerprint = await fingerprintStoredFile(storage, row.variants);
      if (!fingerprint) {
        counts.unreadable++;
        continue;
      }
      // Nothing is stored twice should the server's pipeline have written one meanwhile.
      await db
        .insertInto("photo_fingerprints")
        .values(
          fingerprintRow({
            photoId: row.id,
            listingId: row.listingId,
            userId: row.userId,
            fingerprint,
            seeded: options.seededUserIds?.has(row.userId),
            now: options.now,
          }),
        )
        .onConflict((oc) => oc.column("photoId").doNothing())
        .execute();
      counts.fingerprinted++;
    }
  }
}

async function fingerprintStoredFile(storage: PhotoStorage, variantsJson: string): Promise<PhotoFingerprint | null> {
  let variants: PhotoVariant[];
  try {
    variants = JSON.parse(variantsJson) as PhotoVariant[];
  } catch {
    return null;
  }
  const largest = [...variants].sort((a, b) => b.width - a.width)[0];
  const data = largest ? await storage.get(largest.key) : null;
  return data ? fingerprintImage(data) : null;
}
