import { CompiledQuery, sql } from "kysely";
import { beforeAll, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { refreshStatistics } from "../../app/db/maintenance.server";
import { insertListing } from "../../app/models/listing.server";
import { filterConditions } from "../../app/models/listing-filters.server";
import { searchListings } from "../../app/models/listing-search.server";
import type { NewListingInput } from "../../app/schemas/listing-form";
import { insertTestOwner, listingInput } from "../factories";
import { describeEachDatabase } from "../test-db";

// Migration 011 (docs/performance.md): the counts behind "N boarding places found"
// under a city or a faculty filter read index entries only (the cold benchmark
// spent 11-17 ms per such count reading a table row per match at 100,000
// listings), and a type or a university in price order has its own index (the
// first page of "apartments, cheapest first" read every cheaper room first).

const NOW = new Date("2026-12-01T12:00:00.000Z");
const CITIES = ["colombo", "kandy", "galle", "jaffna"] as const;
const FACULTIES = ["Faculty of Engineering", "Faculty of Architecture", "Main Campus"] as const;
const TYPES = ["single", "shared", "apartment", "hostel"] as const;

/** SQLite's plan for a statement, its steps joined with " | ". */
async function planOf(db: DB, statement: string, parameters: readonly unknown[] = []): Promise<string> {
  const { rows } = await db.executeQuery<{ detail: string }>(
    CompiledQuery.raw(`explain query plan ${statement}`, [...parameters]),
  );
  return rows.map((r) => r.detail).join(" | ");
}

/** `count` listings of one owner, a minute apart, newest first, then fresh statistics for the planner. */
async function seedListings(db: DB, ownerName: string, count: number, fields: (i: number) => Partial<NewListingInput>) {
  const owner = await insertTestOwner(db, ownerName);
  for (let i = 0; i < count; i++)
    await insertListing(db, owner, listingInput(fields(i)), new Date(NOW.getTime() - i * 60_000));
  await refreshStatistics(db);
}

describeEachDatabase("counts under a city or a faculty filter", (ctx) => {
  beforeAll(async () => {
    const { db } = ctx();
    await seedListings(db, "count-owner", 120, (i) => ({
      title: `Room ${i}`,
      university: "University of Moratuwa",
      faculty: FACULTIES[i % FACULTIES.length],
      city: CITIES[i % CITIES.length],
      gender: i % 2 ? "male" : "any",
      propertyType: TYPES[i % TYPES.length],
      price: 5_000 + ((i * 37) % 50) * 1_000,
    }));
  });

  it("give the same totals as counting the listings one by one", async () => {
    const { db } = ctx();
    const page = { page: 1, limit: 20, now: NOW };
    expect((await searchListings(db, { city: "kandy" }, page)).pagination.total).toBe(30);
    expect(
      (await searchListings(db, { university: "University of Moratuwa", faculty: "Main Campus" }, page)).pagination
        .total,
    ).toBe(40);
    expect((await searchListings(db, { city: "galle", gender: "female" }, page)).pagination.total).toBe(30);
  });

  it("have indexes that hold every column such a count reads", async () => {
    const { db, dialect } = ctx();
    if (dialect === "postgres") {
      const rows = await sql<{
        indexname: string;
      }>`select indexname from pg_indexes where tablename = 'listings'`.execute(db);
      const names = rows.rows.map((r) => r.indexname);
      expect(names).toEqual(expect.arrayContaining(["listings_city_count_idx", "listings_faculty_count_idx"]));
      return;
    }
    // The shape of the app's count (app/models/listing-search.server.ts countMatches; '+' keeps expiry out of the index choice).
    const plan = (where: string) =>
      planOf(
        db,
        `select count(*) from (select id from listings where status = 'active' and +expiresAt > '${NOW.toISOString()}' and ${where} limit 10001)`,
      );
    // Any of the city's indexes that hold every column (its count index, or since migration 046 its price order).
    expect(await plan("city = 'kandy'")).toMatch(/COVERING INDEX listings_city_(count|price)_idx/);
    expect(await plan("university = 'University of Moratuwa' and faculty = 'Main Campus'")).toMatch(
      /COVERING INDEX listings_faculty_count_idx/,
    );
  });

  it("walk a university or a city newest first, and a city in price order, on index entries alone (ADR 120)", async () => {
    const { db, dialect } = ctx();
    const page = { page: 2, limit: 5, now: NOW };
    const newest = await searchListings(db, { city: "kandy" }, page);
    const times = newest.ads.map((ad) => ad.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const cheapest = await searchListings(db, { city: "kandy", sort: "price_asc" }, page);
    const prices = cheapest.ads.map((ad) => ad.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect([...newest.ads, ...cheapest.ads].every((ad) => ad.city === "kandy")).toBe(true);
    if (dialect === "postgres") return;
    // The shape of a page found from the filters' indexes (app/models/listing-search.server.ts, the planner walk).
    const plan = async (filters: { university?: string; city?: string }, byPrice: boolean) => {
      let query = db
        .selectFrom("listings")
        .select("listings.id")
        .where((eb) => eb.and(filterConditions(db, eb, filters, NOW.toISOString(), "planner")));
      if (byPrice) query = query.orderBy("listings.price", "asc");
      const compiled = query
        .orderBy("listings.createdAt", "desc")
        .orderBy("listings.id", "desc")
        .limit(5)
        .offset(5)
        .compile();
      return planOf(db, compiled.sql, compiled.parameters);
    };
    for (const [filters, byPrice, index] of [
      [{ university: "University of Moratuwa" }, false, "listings_university_newest_idx"],
      [{ city: "kandy" }, false, "listings_city_newest_idx"],
      [{ city: "kandy" }, true, "listings_city_price_idx"],
    ] as const) {
      const found = await plan(filters, byPrice);
      expect(found).toMatch(new RegExp(`COVERING INDEX ${index}`));
      expect(found).not.toMatch(/TEMP B-TREE/);
    }
  });

  it("walk a type, a university or a city in price order from its own index, with no sort", async () => {
    const { db, dialect } = ctx();
    const page = { page: 1, limit: 5, now: NOW };
    const cheapest = await searchListings(db, { propertyType: "apartment", sort: "price_asc" }, page);
    const prices = cheapest.ads.map((ad) => ad.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(cheapest.ads.every((ad) => ad.propertyType === "apartment")).toBe(true);
    if (dialect === "postgres") return;
    // The shape of a price walk (app/models/listing-search.server.ts: the type and the university stay indexable).
    const plan = (where: string) =>
      planOf(
        db,
        `select id from listings where status = 'active' and +expiresAt > '${NOW.toISOString()}' and ${where} order by price asc, createdAt desc, id desc limit 20`,
      );
    const byType = await plan("propertyType = 'apartment'");
    expect(byType).toMatch(/INDEX listings_type_price_idx/);
    expect(byType).not.toMatch(/TEMP B-TREE/);
    const byUniversity = await plan("university = 'University of Moratuwa'");
    expect(byUniversity).toMatch(/INDEX listings_university_price_idx/);
    expect(byUniversity).not.toMatch(/TEMP B-TREE/);
    // Migration 046: a city too, as the app's price walk builds it (OWN_PRICE_ORDER keeps the city indexable).
    const walk = db
      .selectFrom("listings")
      .select("listings.id")
      .where((eb) => eb.and(filterConditions(db, eb, { city: "kandy" }, NOW.toISOString(), "price")))
      .orderBy("listings.price", "asc")
      .orderBy("listings.createdAt", "desc")
      .orderBy("listings.id", "desc")
      .limit(20)
      .compile();
    const byCity = await planOf(db, walk.sql, walk.parameters);
    expect(byCity).toMatch(/INDEX listings_city_price_idx/);
    expect(byCity).not.toMatch(/TEMP B-TREE/);
  });
});

describeEachDatabase("the listings table's vacuum (ADR 117)", (ctx) => {
  it("on PostgreSQL comes after 1% of the listings changed or were added, so counts keep reading the index alone", async () => {
    const { db, dialect } = ctx();
    // SQLite has no vacuum to tune: its counts read the covering indexes above whatever changed.
    if (dialect !== "postgres") return;
    const { rows } = await sql<{ option: string }>`
      select unnest(reloptions) as option from pg_class where relname = 'listings' and relkind = 'r'`.execute(db);
    expect(rows.map((r) => r.option).sort()).toEqual([
      "autovacuum_vacuum_insert_scale_factor=0.01",
      "autovacuum_vacuum_insert_threshold=200",
      "autovacuum_vacuum_scale_factor=0.01",
      "autovacuum_vacuum_threshold=200",
    ]);
  });
});

// A faculty with nearly all of its university's listings ('Main Campus') and prices of every kind, as in
// the benchmark's data: SQLite's statistics then make a price range look narrower than the faculty, and a
// count read a table row per match through the price index (12-16 ms at 100,000 listings, ADR 119).
describeEachDatabase("counts under a faculty and a price", (ctx) => {
  beforeAll(async () => {
    const { db } = ctx();
    await seedListings(db, "faculty-price-owner", 150, (i) => ({
      title: `Room near the faculty ${i}`,
      university: i % 15 === 0 ? "University of Moratuwa" : "University of Colombo",
      faculty: "Main Campus",
      price: 5_000 + i * 500,
    }));
  });

  it("read the faculty's count index alone, as the app builds them, and give the right totals", async () => {
    const { db, dialect } = ctx();
    const filters = { university: "University of Colombo", faculty: "Main Campus", maxPrice: 40_000 };
    const page = { page: 1, limit: 20, now: NOW };
    // Prices 5,000 to 40,000 are the first 71 listings; 5 of them are at another university.
    expect((await searchListings(db, filters, page)).pagination.total).toBe(66);
    expect(
      (await searchListings(db, { ...filters, maxPrice: undefined, minPrice: 60_000 }, page)).pagination.total,
    ).toBe([...Array(150).keys()].filter((i) => i % 15 !== 0 && 5_000 + i * 500 >= 60_000).length);
    if (dialect === "postgres") return;
    const count = db
      .selectFrom("listings")
      .select("listings.id")
      .where((eb) => eb.and(filterConditions(db, eb, filters, NOW.toISOString(), "planner")))
      .limit(10_001)
      .compile();
    expect(await planOf(db, `select count(*) from (${count.sql})`, count.parameters)).toMatch(
      /COVERING INDEX listings_faculty_count_idx/,
    );
  });
});
