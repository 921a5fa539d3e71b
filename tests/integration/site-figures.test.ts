import { beforeAll, expect, it } from "vitest";
import { UNIVERSITIES } from "../../app/directory/universities";
import { insertListing } from "../../app/models/listing.server";
import { siteFigures } from "../../app/pages/site-figures.server";
import type { ListingStatus } from "../../app/schemas/listing-status";
import { insertTestOwner, listingInput } from "../factories";
import { describeEachDatabase } from "../test-db";

// The home and about pages' figures: how many listings are up, and at how
// many universities. Universities are counted one index probe each (not by
// reading every listing), which must give the same answer as counting them.

const NOW = new Date("2026-12-01T12:00:00.000Z");
const DAY_MS = 24 * 60 * 60 * 1000;

describeEachDatabase("site figures", (ctx) => {
  beforeAll(async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, "figures-owner");
    const add = async (university: string, status: ListingStatus = "active", age = 0) => {
      const { id } = await insertListing(
        db,
        owner,
        listingInput({ university, faculty: UNIVERSITIES.find((u) => u.name === university)?.faculties[0]?.name }),
        new Date(NOW.getTime() - age),
      );
      if (status !== "active") await db.updateTable("listings").set({ status }).where("id", "=", id).execute();
    };
    await add("University of Moratuwa");
    await add("University of Moratuwa");
    await add("University of Jaffna");
    await add("University of Ruhuna");
    // Not up: past its 30 days without a write, let, held, hidden, deleted.
    await add("University of Colombo", "active", 31 * DAY_MS);
    await add("University of Kelaniya", "let");
    await add("University of Peradeniya", "pending");
    await add("Sabaragamuwa University of Sri Lanka", "hidden");
    await add("Eastern University Sri Lanka", "deleted");
  });

  it("count the listings that are up and the universities they are near", async () => {
    expect(await siteFigures(ctx().db, undefined, NOW)).toEqual({
      listingCount: 4,
      universitiesWithListings: 3,
      universitiesSupported: UNIVERSITIES.length,
    });
  });

  it("keep the listings counted per status equal to the listings themselves, whatever the statement", async () => {
    const { db } = ctx();
    const kept = async () =>
      Object.fromEntries(
        (await db.selectFrom("listing_status_counts").select(["status", "count"]).execute())
          .filter((row) => Number(row.count) !== 0)
          .map((row) => [row.status, Number(row.count)]),
      );
    const counted = async () =>
      Object.fromEntries(
        (
          await db
            .selectFrom("listings")
            .select((eb) => ["status", eb.fn.countAll().as("count")])
            .groupBy("status")
            .execute()
        ).map((row) => [row.status, Number(row.count)]),
      );
    const ids = (await db.selectFrom("listings").select("id").orderBy("id").execute()).map((row) => row.id);
    // Several rows in one statement, some changing status and some not; then back; an edit that
    // leaves the status alone; a row deleted outright (an account's removal cascades so).
    await db.updateTable("listings").set({ status: "let" }).where("id", "in", ids.slice(0, 3)).execute();
    expect(await kept()).toEqual(await counted());
    await db.updateTable("listings").set({ status: "active" }).where("id", "in", ids.slice(0, 6)).execute();
    expect(await kept()).toEqual(await counted());
    await db.updateTable("listings").set({ title: "Room near the campus, renamed" }).where("id", "in", ids).execute();
    await db.deleteFrom("listing_photos").where("listingId", "=", ids[8]).execute();
    await db.deleteFrom("listings").where("id", "=", ids[8]).execute();
    expect(await kept()).toEqual(await counted());
    // Put back as the other tests expect: four up.
    await db.updateTable("listings").set({ status: "let" }).where("id", "=", ids[5]).execute();
    await db.updateTable("listings").set({ status: "pending" }).where("id", "=", ids[4]).execute();
    expect(await kept()).toEqual(await counted());
    expect(await siteFigures(db, undefined, NOW)).toMatchObject({ listingCount: 4 });
  });

  it("count no university when nothing is up", async () => {
    const later = new Date(NOW.getTime() + 40 * DAY_MS);
    expect(await siteFigures(ctx().db, undefined, later)).toMatchObject({
      listingCount: 0,
      universitiesWithListings: 0,
    });
  });
});
