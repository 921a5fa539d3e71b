import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import {
  bandKeys,
  decodeShingles,
  encodeShingles,
  exactJaccard,
  MIN_SHARED_BANDS,
  minHashSignature,
  SIMILAR_JACCARD,
  sketchText,
} from "~/lib/text-sketch";
import { DELETED_STATUS } from "~/schemas/listing-status";
import { COPY_MEMORY_DAYS } from "./photo-copies.server";

/**
 * Descriptions copied from another owner's ad (ADR 079): every listing's
 * description is sketched where it is written (app/lib/text-sketch.ts), and
 * `findSimilarDescriptions` looks a new text up among other owners' listings:
 * candidates by LSH band key, then the exact Jaccard of the shingle sets.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Listing ids per `in (…)` list: far below either database's limit on bound values. */
const ID_BATCH = 500;

function sinceFor(now: Date): string {
  return new Date(now.getTime() - COPY_MEMORY_DAYS * DAY_MS).toISOString();
}

/** The band rows a sketch's stored shingles stand for (none when there are none). */
function bandRows(listingId: number, shingles: Uint32Array) {
  if (shingles.length === 0) return [];
  return bandKeys(minHashSignature(shingles)).map((key, band) => ({ key, band, listingId }));
}

/** Deletes a listing's band rows: found by the keys its stored shingles give (the table has no index by listing). */
async function deleteBands(db: DB, listingId: number, storedShingles: string): Promise<void> {
  const rows = bandRows(listingId, decodeShingles(storedShingles));
  if (rows.length === 0) return;
  await db
    .deleteFrom("description_bands")
    .where(
      "key",
      "in",
      rows.map((r) => r.key),
    )
    .where("listingId", "=", listingId)
    .execute();
}

export type DescriptionOf = {
  listingId: number;
  userId: string;
  text: string;
  /** Demo and synthetic listings: stored, never matched (a listing once seeded stays so). */
  seeded?: boolean;
};

/**
 * Stores a listing's description sketch in place of the one it had (in the
 * caller's transaction, where the listing is posted or edited). A text too
 * short to compare, or a seeded listing's, is stored without shingles or band
 * rows: it marks the listing done for the backfill and never matches.
 */
export async function recordDescriptionSketch(db: DB, input: DescriptionOf, now = currentTime()): Promise<void> {
  const before = await db
    .selectFrom("description_sketches")
    .select(["seeded", "shingles"])
    .where("listingId", "=", input.listingId)
    .executeTakeFirst();
  if (before) await deleteBands(db, input.listingId, before.shingles);
  const seeded = input.seeded ?? before?.seeded === 1;
  const sketch = seeded ? null : sketchText(input.text);
  const row = {
    userId: input.userId,
    seeded: seeded ? 1 : 0,
    shingles: sketch ? encodeShingles(sketch.shingles) : "",
    createdAt: now.toISOString(),
    removedAt: null,
  };
  await db
    .insertInto("description_sketches")
    .values({ listingId: input.listingId, ...row })
    .onConflict((oc) => oc.column("listingId").doUpdateSet(row))
    .execute();
  if (sketch) {
    await db
      .insertInto("description_bands")
      .values(sketch.bandKeys.map((key, band) => ({ key, band, listingId: input.listingId })))
      .execute();
  }
}

/** A listing deleted or removed: its description still counts for COPY_MEMORY_DAYS from now. */
export async function markDescriptionRemoved(db: DB, listingId: number, now = currentTime()): Promise<void> {
  await db
    .updateTable("description_sketches")
    .set({ removedAt: now.toISOString() })
    .where("listingId", "=", listingId)
    .where("removedAt", "is", null)
    .execute();
}

/** Another owner's listing whose description a text nearly is. */
export type SimilarDescription = {
  listingId: number;
  /** The exact Jaccard similarity of the two texts' 3-word shingles: SIMILAR_JACCARD to 1. */
  similarity: number;
};

/**
 * The listings of owners other than `ownerId` (every owner's when null; whatever their state, or
 * removed within COPY_MEMORY_DAYS; never a seeded one) whose description
 * `text` nearly is: exact Jaccard of the shingle sets at least
 * SIMILAR_JACCARD, most similar first. Candidates, those sharing
 * MIN_SHARED_BANDS band keys, come from the band index alone; only their
 * sketch rows are read. A text of fewer than
 * MIN_SKETCH_WORDS words matches nothing. An owner's own listings never match.
 */
export async function findSimilarDescriptions(
  db: DB,
  ownerId: string | null,
  text: string,
  now = currentTime(),
): Promise<SimilarDescription[]> {
  const sketch = sketchText(text);
  if (!sketch) return [];
  const hits = await db
    .selectFrom("description_bands")
    .select(["key", "band", "listingId"])
    .where("key", "in", sketch.bandKeys)
    .execute();
  // A key is its band's hash: one equal in another band is a 2^-32 accident.
  const shared = new Map<number, number>();
  for (const hit of hits) {
    if (sketch.bandKeys[hit.band] !== hit.key) continue;
    const listingId = Number(hit.listingId);
    shared.set(listingId, (shared.get(listingId) ?? 0) + 1);
  }
  const candidates = [...shared].filter(([, bands]) => bands >= MIN_SHARED_BANDS).map(([listingId]) => listingId);
  const since = sinceFor(now);
  const similar: SimilarDescription[] = [];
  for (let at = 0; at < candidates.length; at += ID_BATCH) {
    let query = db
      .selectFrom("description_sketches")
      .select(["listingId", "shingles"])
      .where("listingId", "in", candidates.slice(at, at + ID_BATCH));
    if (ownerId !== null) query = query.where("userId", "!=", ownerId);
    const rows = await query
      .where("seeded", "=", 0)
      .where((eb) => eb.or([eb("removedAt", "is", null), eb("removedAt", ">=", since)]))
      .execute();
    for (const row of rows) {
      const similarity = exactJaccard(sketch.shingles, decodeShingles(row.shingles));
      if (similarity >= SIMILAR_JACCARD) similar.push({ listingId: Number(row.listingId), similarity });
    }
  }
  return similar.sort((a, b) => b.similarity - a.similarity || a.listingId - b.listingId);
}

/** Listings sketched per batch by the backfill. */
const BACKFILL_BATCH = 200;

/**
 * The `description-sketches` job (ADR 079). Sketches the listings that have
 * no sketch (those from before migration 038, and the seeds', which write
 * none); listings of `seededUserIds` (the demo owners) are marked seeded, and
 * listings their owners deleted count as removed when they were last
 * updated (`short`: too short to compare, stored without shingles). Then forgets the sketches of listings removed more than
 * COPY_MEMORY_DAYS ago: their band rows go and their shingles are emptied,
 * the row staying as the mark that the listing is done.
 */
export async function sketchStoredDescriptions(
  db: DB,
  options: { seededUserIds?: ReadonlySet<string>; now?: Date } = {},
): Promise<{ sketched: number; short: number; seeded: number; forgotten: number }> {
  const now = options.now ?? currentTime();
  const counts = { sketched: 0, short: 0, seeded: 0, forgotten: 0 };
  let after = 0;
  for (;;) {
    const listings = await db
      .selectFrom("listings")
      .leftJoin("description_sketches", "description_sketches.listingId", "listings.id")
      .select(["listings.id", "listings.userId", "listings.description", "listings.status", "listings.updatedAt"])
      .where("description_sketches.listingId", "is", null)
      .where("listings.id", ">", after)
      .orderBy("listings.id")
      .limit(BACKFILL_BATCH)
      .execute();
    if (listings.length === 0) break;
    after = listings[listings.length - 1].id;
    await db.transaction().execute(async (trx) => {
      for (const listing of listings) {
        const seeded = options.seededUserIds?.has(listing.userId) ?? false;
        const sketch = seeded ? null : sketchText(listing.description);
        // Nothing is stored twice should the listing have been saved meanwhile.
        const inserted = await trx
          .insertInto("description_sketches")
          .values({
            listingId: listing.id,
            userId: listing.userId,
            seeded: seeded ? 1 : 0,
            shingles: sketch ? encodeShingles(sketch.shingles) : "",
            createdAt: now.toISOString(),
            removedAt: listing.status === DELETED_STATUS ? listing.updatedAt : null,
          })
          .onConflict((oc) => oc.column("listingId").doNothing())
          .returning("listingId")
          .executeTakeFirst();
        if (!inserted) continue;
        if (seeded) counts.seeded++;
        else if (!sketch) counts.short++;
        else {
          counts.sketched++;
          await trx
            .insertInto("description_bands")
            .values(sketch.bandKeys.map((key, band) => ({ key, band, listingId: listing.id })))
            .execute();
        }
      }
    });
  }
  counts.forgotten = await forgetRemovedDescriptions(db, now);
  return counts;
}

/** Empties the sketches of listings removed more than COPY_MEMORY_DAYS before `now`; how many. */
export async function forgetRemovedDescriptions(db: DB, now = currentTime()): Promise<number> {
  const since = sinceFor(now);
  let forgotten = 0;
  for (;;) {
    const rows = await db
      .selectFrom("description_sketches")
      .select(["listingId", "shingles"])
      .where("removedAt", "is not", null)
      .where("removedAt", "<", since)
      .where("shingles", "!=", "")
      .limit(BACKFILL_BATCH)
      .execute();
    if (rows.length === 0) return forgotten;
    await db.transaction().execute(async (trx) => {
      for (const row of rows) {
        await deleteBands(trx, Number(row.listingId), row.shingles);
        await trx
          .updateTable("description_sketches")
          .set({ shingles: "" })
          .where("listingId", "=", row.listingId)
          .execute();
      }
    });
    forgotten += rows.length;
  }
}
