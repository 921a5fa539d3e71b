import { beforeEach, expect, it } from "vitest";
import { inLocale } from "../../app/i18n/request-locale.server";
import { findListingBySlug, insertListing } from "../../app/models/listing.server";
import { forgetTypicalRents, MIN_SIMILAR, typicalRent } from "../../app/models/price-context.server";
import { toListingView } from "../../app/pages/listing-page.server";
import { insertTestOwner, listingInput } from "../factories";
import { describeEachDatabase } from "../test-db";

// ADR 048: the middle half of the rents of similar places (same university,
// same property type, active), shown on a listing page only when there are at
// least five of them.

const UOM = "University of Moratuwa";

/** The quartiles by nearest rank, written as plainly as possible. */
function reference(prices: number[]) {
  const sorted = [...prices].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.ceil(share * sorted.length) - 1];
  return { low: at(0.25), high: at(0.75), count: sorted.length };
}

describeEachDatabase("typical rent of similar places", (ctx) => {
  beforeEach(() => forgetTypicalRents());

  it("is nothing with fewer than five similar listings, then their middle half", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, "rent-owner");
    const prices = [9_000, 30_000, 12_000, 15_000, 18_000, 14_000, 11_000, 60_000, 16_000];
    for (const [i, price] of prices.slice(0, MIN_SIMILAR - 1).entries()) {
      await insertListing(db, owner, listingInput({ title: `Single ${i}`, price, university: UOM }));
    }
    // Others that are not similar never count: another type, another university, hidden, expired.
    await insertListing(db, owner, listingInput({ price: 1_000, university: UOM, propertyType: "hostel" }));
    await insertListing(
      db,
      owner,
      listingInput({ price: 1_000, university: "University of Colombo", city: "colombo", faculty: "Main Campus" }),
    );
    const hidden = await insertListing(db, owner, listingInput({ price: 1_000, university: UOM }));
    await db.updateTable("listings").set({ status: "hidden" }).where("id", "=", hidden.id).execute();
    const lapsed = await insertListing(db, owner, listingInput({ price: 1_000, university: UOM }));
    await db
      .updateTable("listings")
      .set({ expiresAt: "2020-01-01T00:00:00.000Z" })
      .where("id", "=", lapsed.id)
      .execute();
    expect(await typicalRent(db, UOM, "single")).toBeNull();

    for (const [i, price] of prices.slice(MIN_SIMILAR - 1).entries()) {
      await insertListing(db, owner, listingInput({ title: `Single more ${i}`, price, university: UOM }));
    }
    // Remembered for a while: the range is read once per university and type.
    expect(await typicalRent(db, UOM, "single")).toBeNull();
    forgetTypicalRents();
    expect(await typicalRent(db, UOM, "single")).toEqual(reference(prices));
    expect(reference(prices)).toEqual({ low: 12_000, high: 18_000, count: 9 });
  });

  it("is shown on the listing page as a range in the reader's language, with no judgement", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, "rent-page-owner");
    const { slug } = await insertListing(db, owner, listingInput({ title: "Annex", university: UOM, price: 15_000 }));
    const found = (await findListingBySlug(db, slug))!;
    const typical = await typicalRent(db, UOM, "single");
    expect(toListingView(found, 1, "en", typical).typicalRentLine).toBe(
      "Most single rooms near University of Moratuwa: LKR 12,000–18,000",
    );
    expect(inLocale("si", () => toListingView(found, 1, "si", typical).typicalRentLine)).toContain("12,000");
    expect(toListingView(found, 1, "en", null).typicalRentLine).toBeNull();
    const apartments = await typicalRent(db, UOM, "apartment");
    expect(apartments).toBeNull();
  });
});
