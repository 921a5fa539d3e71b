import { sql } from "kysely";
import { expect, it } from "vitest";
import { rebuildSetAsideIndexes, withSecondaryIndexesSetAside } from "../../app/db/bulk-load.server";
import type { DB } from "../../app/db/db.server";
import { migrateToLatest } from "../../app/db/migrate.server";
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
