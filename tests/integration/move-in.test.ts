import { expect, it } from "vitest";
import { moveInCost } from "../../app/lib/move-in";
import { insertListing } from "../../app/models/listing.server";
import { searchListings } from "../../app/models/listing-search.server";
import { insertTestOwner, listingInput } from "../factories";
import { describeEachDatabase } from "../test-db";

// ADR 047: the database works out the move-in total the 'Max move-in cost'
// filter uses (migration 016); it must agree with what pages show
// (app/lib/move-in.ts) however the terms are written or changed.

const NOW = new Date("2026-12-01T12:00:00.000Z");
const TERMS = [
  { price: 25_000, keymoneyFee: 30_000, deposit: null, advanceMonths: 3 },
  { price: 12_000, keymoneyFee: null, deposit: 5_000, advanceMonths: 1 },
  { price: 9_000, keymoneyFee: null, deposit: null, advanceMonths: 0 },
  { price: 18_000, keymoneyFee: 50_000, deposit: 10_000, advanceMonths: null },
  { price: 40_000, keymoneyFee: 80_000, deposit: 40_000, advanceMonths: 12 },
];

describeEachDatabase("the move-in total", (ctx) => {
  it("is what the pages show, null while the advance is not stated, and follows an edit", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, "move-in-owner", { createdAt: NOW.toISOString() });
    const ids: number[] = [];
    for (const terms of TERMS) ids.push((await insertListing(db, owner, listingInput(terms), NOW)).id);
    const stored = async () =>
      (await db.selectFrom("listings").select(["id", "moveInCost"]).where("id", "in", ids).orderBy("id").execute()).map(
        (r) => r.moveInCost,
      );
    expect(await stored()).toEqual(TERMS.map((terms) => moveInCost(terms)?.total ?? null));
    expect(await stored()).toEqual([105_000, 17_000, 0, null, 600_000]);

    await db.updateTable("listings").set({ price: 20_000, advanceMonths: 2 }).where("id", "=", ids[3]).execute();
    expect((await stored())[3]).toBe(50_000 + 10_000 + 40_000);
  });

  it("filters browse: unstated terms never match, the bound is included", async () => {
    const { db } = ctx();
    const found = async (maxMoveIn: number) =>
      (await searchListings(db, { maxMoveIn }, { page: 1, limit: 50, now: NOW })).ads.map((ad) => ad.moveInCost);
    expect((await found(17_000)).sort()).toEqual([0, 17_000]);
    expect((await found(0)).sort()).toEqual([0]);
    expect(await found(1_000_000)).not.toContain(null);
    expect((await found(1_000_000)).length).toBe(5);
  });
});
