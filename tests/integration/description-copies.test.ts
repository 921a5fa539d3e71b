import { expect, it } from "vitest";
import { COPY_EDITS, roomAdSentences, roomAds } from "../../app/bench/room-ads";
import type { DB } from "../../app/db/db.server";
import { SIMILAR_JACCARD } from "../../app/lib/text-sketch";
import {
  findSimilarDescriptions,
  forgetRemovedDescriptions,
  markDescriptionRemoved,
  recordDescriptionSketch,
  sketchStoredDescriptions,
} from "../../app/models/description-copies.server";
import { insertListing } from "../../app/models/listing.server";
import { COPY_MEMORY_DAYS } from "../../app/models/photo-copies.server";
import { createRandom } from "../../app/seed/random";
import { insertTestOwner, listingInput } from "../factories";
import { describeEachDatabase } from "../test-db";

// Near-duplicate descriptions (ADR 079): sketches recorded where a listing is
// written, and findSimilarDescriptions finding them among other owners'
// listings only. The sketch tables have no foreign keys: most tests record
// sketches for listing ids of their own (from 900,001) without listing rows.

const DAY_MS = 24 * 60 * 60 * 1000;
const T0 = new Date("2026-11-28T08:00:00Z");
const days = (n: number) => new Date(T0.getTime() + n * DAY_MS);

/** Ads no other test uses: each test draws from a seed of its own. */
function adsFor(seed: number, count: number): string[] {
  return roomAds(count, 1000 + seed);
}

async function bandCount(db: DB, listingId: number): Promise<number> {
  const rows = await db.selectFrom("description_bands").select("key").where("listingId", "=", listingId).execute();
  return rows.length;
}

describeEachDatabase("findSimilarDescriptions", (ctx) => {
  it("finds other owners' listings a text nearly copies, most similar first; never the owner's own", async () => {
    const { db } = ctx();
    const rand = createRandom(1);
    const sentences = roomAdSentences(rand);
    const original = sentences.join(" ");
    const longer = COPY_EDITS.find((e) => e.name === "one sentence added")!.apply(sentences, rand);
    await recordDescriptionSketch(db, { listingId: 900_001, userId: "owner-a", text: original }, T0);
    await recordDescriptionSketch(db, { listingId: 900_002, userId: "owner-b", text: longer }, T0);
    const [unrelated] = adsFor(1, 1);
    await recordDescriptionSketch(db, { listingId: 900_003, userId: "owner-c", text: unrelated }, T0);

    // The copier changed the phone number and the rent: to Bodima the same text as the original.
    const copy = COPY_EDITS.find((e) => e.name === "another phone number and rent")!.apply(sentences, rand);
    const found = await findSimilarDescriptions(db, "copier", copy, T0);
    expect(found.map((f) => f.listingId)).toEqual([900_001, 900_002]);
    expect(found[0].similarity).toBe(1);
    expect(found[1].similarity).toBeGreaterThanOrEqual(SIMILAR_JACCARD);
    expect(found[1].similarity).toBeLessThan(1);

    expect(await findSimilarDescriptions(db, "owner-a", copy, T0)).toEqual([
      { listingId: 900_002, similarity: found[1].similarity },
    ]);
    expect(await findSimilarDescriptions(db, "copier", adsFor(1, 2)[1], T0)).toEqual([]);
  });

  it("an edit replaces a listing's sketch: the old text no longer finds it, the new one does", async () => {
    const { db } = ctx();
    const [before, after] = adsFor(2, 2);
    await recordDescriptionSketch(db, { listingId: 900_010, userId: "owner-e", text: before }, T0);
    expect(await findSimilarDescriptions(db, "copier", before, T0)).toEqual([{ listingId: 900_010, similarity: 1 }]);
    await recordDescriptionSketch(db, { listingId: 900_010, userId: "owner-e", text: after }, days(1));
    expect(await findSimilarDescriptions(db, "copier", before, days(1))).toEqual([]);
    expect(await findSimilarDescriptions(db, "copier", after, days(1))).toEqual([
      { listingId: 900_010, similarity: 1 },
    ]);
    expect(await bandCount(db, 900_010)).toBe(24);
  });

  it("compares no description of fewer than 12 words: too many innocent matches", async () => {
    const { db } = ctx();
    const short = "Room for a girl near campus. Call 0771234567.";
    await recordDescriptionSketch(db, { listingId: 900_020, userId: "owner-s", text: short }, T0);
    expect(await findSimilarDescriptions(db, "copier", short, T0)).toEqual([]);
    expect(await bandCount(db, 900_020)).toBe(0);
    const row = await db
      .selectFrom("description_sketches")
      .selectAll()
      .where("listingId", "=", 900_020)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ userId: "owner-s", seeded: 0, shingles: "", removedAt: null });
  });

  it("never matches a seeded (demo) listing, and its edits stay seeded", async () => {
    const { db } = ctx();
    const [demo, edited] = adsFor(3, 2);
    await recordDescriptionSketch(db, { listingId: 900_030, userId: "demo-owner", text: demo, seeded: true }, T0);
    expect(await findSimilarDescriptions(db, "copier", demo, T0)).toEqual([]);
    await recordDescriptionSketch(db, { listingId: 900_030, userId: "demo-owner", text: edited }, T0);
    expect(await findSimilarDescriptions(db, "copier", edited, T0)).toEqual([]);
    expect(await bandCount(db, 900_030)).toBe(0);
  });

  it(`still finds a removed listing for ${COPY_MEMORY_DAYS} days, then forgets it`, async () => {
    const { db } = ctx();
    const [ad] = adsFor(4, 1);
    await recordDescriptionSketch(db, { listingId: 900_040, userId: "owner-r", text: ad }, T0);
    await markDescriptionRemoved(db, 900_040, days(10));
    // A second removal keeps the first date.
    await markDescriptionRemoved(db, 900_040, days(100));
    const found = [{ listingId: 900_040, similarity: 1 }];
    expect(await findSimilarDescriptions(db, "copier", ad, days(10 + COPY_MEMORY_DAYS - 1))).toEqual(found);
    expect(await findSimilarDescriptions(db, "copier", ad, days(10 + COPY_MEMORY_DAYS + 1))).toEqual([]);

    expect(await forgetRemovedDescriptions(db, days(10 + COPY_MEMORY_DAYS - 1))).toBe(0);
    expect(await bandCount(db, 900_040)).toBe(24);
    expect(await forgetRemovedDescriptions(db, days(10 + COPY_MEMORY_DAYS + 1))).toBe(1);
    expect(await bandCount(db, 900_040)).toBe(0);
    expect(await forgetRemovedDescriptions(db, days(10 + COPY_MEMORY_DAYS + 2))).toBe(0);

    // Saved again (a listing its owner brings back): up, and found, again.
    await recordDescriptionSketch(db, { listingId: 900_040, userId: "owner-r", text: ad }, days(300));
    expect(await findSimilarDescriptions(db, "copier", ad, days(300))).toEqual(found);
  });

  it("sketches stored listings that have none (npm run job -- description-sketches)", async () => {
    const { db } = ctx();
    const [mine, demo, deletedLately, deletedLongAgo, other] = adsFor(5, 5);
    const owner = await insertTestOwner(db, "backfill-owner");
    const demoOwner = await insertTestOwner(db, "backfill-demo");
    const insert = async (who: { id: string; email: string }, description: string) =>
      (await insertListing(db, who, listingInput({ description }))).id;
    const ids = {
      mine: await insert(owner, mine),
      demo: await insert(demoOwner, demo),
      deletedLately: await insert(owner, deletedLately),
      deletedLongAgo: await insert(owner, deletedLongAgo),
      short: await insert(owner, "A room for a student."),
    };
    const now = new Date();
    const deletedAt = (n: number) => new Date(now.getTime() - n * DAY_MS).toISOString();
    await db
      .updateTable("listings")
      .set({ status: "deleted", updatedAt: deletedAt(10) })
      .where("id", "=", ids.deletedLately)
      .execute();
    await db
      .updateTable("listings")
      .set({ status: "deleted", updatedAt: deletedAt(COPY_MEMORY_DAYS + 20) })
      .where("id", "=", ids.deletedLongAgo)
      .execute();
    // As before migration 038: listings without sketches.
    const listingIds = Object.values(ids);
    await db.deleteFrom("description_bands").where("listingId", "in", listingIds).execute();
    await db.deleteFrom("description_sketches").where("listingId", "in", listingIds).execute();
    expect(await findSimilarDescriptions(db, "copier", mine, now)).toEqual([]);

    const counts = await sketchStoredDescriptions(db, { seededUserIds: new Set([demoOwner.id]), now });
    expect(counts).toEqual({ sketched: 3, short: 1, seeded: 1, forgotten: 1 });
    expect(await findSimilarDescriptions(db, "copier", mine, now)).toEqual([{ listingId: ids.mine, similarity: 1 }]);
    expect(await findSimilarDescriptions(db, "copier", deletedLately, now)).toEqual([
      { listingId: ids.deletedLately, similarity: 1 },
    ]);
    expect(await findSimilarDescriptions(db, "copier", deletedLongAgo, now)).toEqual([]);
    expect(await findSimilarDescriptions(db, "copier", demo, now)).toEqual([]);
    expect(await findSimilarDescriptions(db, "copier", other, now)).toEqual([]);
    expect(await sketchStoredDescriptions(db, { now })).toEqual({ sketched: 0, short: 0, seeded: 0, forgotten: 0 });
  });
});
