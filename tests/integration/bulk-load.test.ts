import { sql } from "kysely";
import { expect, it } from "vitest";
import {
  fillStatementOf,
  rebuildSetAsideIndexes,
  withListingSearchSetAside,
  withSecondaryIndexesSetAside,
} from "../../app/db/bulk-load.server";
import type { DB } from "../../app/db/db.server";
import { migrateToLatest } from "../../app/db/migrate.server";
import { insertListing } from "../../app/models/listing.server";
import { searchListings } from "../../app/models/listing-search.server";
import type { BrowseFilters } from "../../app/schemas/browse-filters";
import { insertTestOwner, listingInput } from "../factories";
import { describeEachDatabase } from "../test-db";

// A bulk load (the synthetic seed of 50,000 listings or more) sets the listings'
// secondary indexes aside and builds them again at the end; none may be lost,
// even when the load fails or the process dies in the middle of it.

async function indexNames(db: DB, dialect: string): Promise<string[]> {
  const { rows } =
    dialect === "postgres"
      ? await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'listings'`.execute(db)
      : await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'index' and tbl_name = 'listings'`.execute(db);
  return rows.map((r) => r.name).sort();
}

describeEachDatabase("bulk loads with the indexes set aside", (ctx) => {
  it("drop the secondary indexes during the load, keep the unique ones, and build the same ones after", async () => {
    const { db, dialect } = ctx();
    const before = await indexNames(db, dialect);
    expect(before).toEqual(expect.arrayContaining(["listings_newest_idx", "listings_type_price_idx"]));
    let during: string[] = [];
    const result = await withSecondaryIndexesSetAside(db, "listings", async () => {
      during = await indexNames(db, dialect);
      return "loaded";
    });
    expect(result).toBe("loaded");
    expect(during).not.toContain("listings_newest_idx");
    expect(during).not.toContain("listings_type_price_idx");
    // The slug stays unique while rows go in (SQLite names that index sqlite_autoindex_listings_N).
    expect(during.some((name) => /slug|^sqlite_autoindex_listings_/.test(name))).toBe(true);
    expect(await indexNames(db, dialect)).toEqual(before);
  });

  it("build the indexes again when the load fails", async () => {
    const { db, dialect } = ctx();
    const before = await indexNames(db, dialect);
    await expect(
      withSecondaryIndexesSetAside(db, "listings", async () => {
        throw new Error("the load broke");
      }),
    ).rejects.toThrow("the load broke");
    expect(await indexNames(db, dialect)).toEqual(before);
  });

  it("build them at the next start-up when the process died during the load", async () => {
    const { db, dialect } = ctx();
    const before = await indexNames(db, dialect);
    // What a killed load leaves: the index gone, its definition kept.
    const definition =
      dialect === "postgres"
        ? (await sql<{ d: string }>`select pg_get_indexdef('listings_city_count_idx'::regclass) as d`.execute(db))
            .rows[0].d
        : (
            await sql<{ d: string }>`select sql as d from sqlite_master where name = 'listings_city_count_idx'`.execute(
              db,
            )
          ).rows[0].d;
    await sql`insert into bulk_load_set_aside_indexes (name, definition) values ('listings_city_count_idx', ${definition})`.execute(
      db,
    );
    await sql`drop index listings_city_count_idx`.execute(db);
    expect(await indexNames(db, dialect)).not.toContain("listings_city_count_idx");
    await migrateToLatest(db);
    expect(await indexNames(db, dialect)).toEqual(before);
    expect(await rebuildSetAsideIndexes(db)).toBe(0);
  });
});

let added = 0;
/** A listing whose description and location carry words no other listing has. */
async function addFindable(db: DB, word: string, place: string): Promise<number> {
  const owner = await insertTestOwner(db, `bulk-${++added}-${Date.now()}`);
  const input = listingInput({
    description: `A quiet ${word} near the campus.`,
    location: place,
    contactPhone: owner.phone,
  });
  return (await insertListing(db, owner, input)).id;
}

async function found(db: DB, filters: BrowseFilters): Promise<number[]> {
  return (await searchListings(db, filters, { page: 1, limit: 50 })).ads.map((ad) => Number(ad.id));
}

describeEachDatabase("bulk loads with the search triggers set aside", (ctx) => {
  it("find a listing loaded meanwhile by a word of its text and by part of its place, as if inserted alone", async () => {
    const { db } = ctx();
    const before = await addFindable(db, "bulkloadbefore", "Kotuwegoda North");
    const id = await withListingSearchSetAside(db, () => addFindable(db, "bulkloadduring", "Pitakotte East"));
    expect(await found(db, { search: "bulkloadduring" })).toEqual([id]);
    expect(await found(db, { location: "pitakott" })).toEqual([id]);
    // Listings indexed before the load are not indexed twice: each is found once.
    expect(await found(db, { search: "bulkloadbefore" })).toEqual([before]);
    expect(await found(db, { location: "kotuwegod" })).toEqual([before]);
    // The triggers are back: a listing added after the load is found too.
    const after = await addFindable(db, "bulkloadafter", "Nugegoda");
    expect(await found(db, { search: "bulkloadafter" })).toEqual([after]);
  });

  it("complete the search of a load that died at the next start-up", async () => {
    const { db, dialect } = ctx();
    if (dialect === "postgres") return; // PostgreSQL sets no trigger aside: its words are a column of the row.
    // What a killed load leaves: the trigger gone, the fill and the trigger written down.
    const { rows } = await sql<{ definition: string }>`
      select sql as definition from sqlite_master where name = 'listings_fts_insert'`.execute(db);
    const newest = await sql<{ id: number }>`select max(id) as id from listings`.execute(db);
    const fill = fillStatementOf(rows[0].definition, Number(newest.rows[0].id ?? 0));
    expect(fill).not.toBeNull();
    await sql`insert into bulk_load_set_aside_indexes (name, definition)
      values ('listings_fts_insert:fill', ${fill}), ('listings_fts_insert', ${rows[0].definition})`.execute(db);
    await sql`drop trigger listings_fts_insert`.execute(db);
    const id = await addFindable(db, "bulkloadkilled", "Mirihana");
    expect(await found(db, { search: "bulkloadkilled" })).toEqual([]);
    await migrateToLatest(db);
    expect(await found(db, { search: "bulkloadkilled" })).toEqual([id]);
    const later = await addFindable(db, "bulkloadlater", "Mirihana");
    expect(await found(db, { search: "bulkloadlater" })).toEqual([later]);
  });

  it("keep each table's indexes aside while a load nests one set-aside in another", async () => {
    const { db, dialect } = ctx();
    let during: string[] = [];
    await withSecondaryIndexesSetAside(db, "listings", () =>
      withSecondaryIndexesSetAside(db, "listing_photos", () =>
        withListingSearchSetAside(db, async () => {
          during = await indexNames(db, dialect);
        }),
      ),
    );
    expect(during).not.toContain("listings_newest_idx");
    expect(await indexNames(db, dialect)).toContain("listings_newest_idx");
  });
});
