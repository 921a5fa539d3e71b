import { expect, it } from "vitest";
import { insertListing } from "../../app/models/listing.server";
import { loadMapPoints, MAP_LIMIT } from "../../app/pages/map-points.server";
import { insertTestOwner, listingInput } from "../factories";
import { describeEachDatabase } from "../test-db";

// ADR 053: /browse/map gives the first results of the browse filters as map points.

describeEachDatabase("map points", (ctx) => {
  it("places each result at its public position, or its city's centre marked approximate, up to 50", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, "map-owner");
    const base = Date.now() - 60_000;
    await insertListing(
      db,
      owner,
      listingInput({ title: "Pinned <b>room</b>", latitude: 6.795123, longitude: 79.900987 }),
      new Date(base),
    );
    await insertListing(db, owner, listingInput({ title: "Unpinned room", price: 9000 }), new Date(base + 1000));
    await insertListing(
      db,
      owner,
      listingInput({ title: "Kandy room", university: "University of Peradeniya", city: "kandy" }),
      new Date(base + 2000),
    );
    const url = (query: string) => new URL(`http://localhost/browse/map?${query}`);

    const moratuwa = await loadMapPoints(db, url("university=University%20of%20Moratuwa"));
    expect(moratuwa.total).toBe(2);
    expect(moratuwa.points).toEqual([
      // Newest first, as the list; the unpinned room at Moratuwa's centre.
      {
        slug: expect.any(String),
        title: "Unpinned room",
        priceLine: "LKR 9,000",
        latitude: 6.773,
        longitude: 79.8816,
        approximate: true,
      },
      // Rounded to about 100 m, as every public page; the title stays text for the map to show as text.
      {
        slug: expect.any(String),
        title: "Pinned <b>room</b>",
        priceLine: "LKR 10,000",
        latitude: 6.795,
        longitude: 79.901,
        approximate: false,
      },
    ]);
    expect(moratuwa.tiles.url).toBe("https://tile.openstreetmap.org/{z}/{x}/{y}.png");

    // The same order as the list ('Nearest first' here), and values the list ignores are ignored too.
    const nearest = await loadMapPoints(db, url("university=University%20of%20Moratuwa&sort=nearest&gender=robot"));
    expect(nearest.points.map((p) => p.title)).toEqual(["Pinned <b>room</b>", "Unpinned room"]);
    const all = await loadMapPoints(db, url(""));
    expect(all.points.length).toBe(3);
    expect(all.points.length).toBeLessThanOrEqual(MAP_LIMIT);
  });
});
