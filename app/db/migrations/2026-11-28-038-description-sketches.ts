import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen migration. Near-duplicate descriptions (ADR 079): a MinHash sketch
// of each listing's description, to find another owner's ad copied with a few
// words changed. Not tied to listings by a foreign key: like a photo's
// fingerprint (migration 032) a sketch outlives its listing for 180 days
// (`removedAt`), since a copier often waits for the real ad to go.
// - description_sketches, one row per listing: its owner, `seeded` (1 for the
//   demo and synthetic listings, whose texts are drawn from a few templates:
//   never a match), and `shingles`, the sorted 32-bit hashes of its 3-word
//   shingles (4 bytes each, base64), which the exact Jaccard is worked out
//   from: the listing's own text may be gone. Empty for seeded rows, texts
//   too short to compare, and rows forgotten 180 days after removal. A row
//   also tells the `description-sketches` job that the listing is done.
// - description_bands, the lookup: one row per LSH band of each sketch with
//   shingles that is not seeded (24 per listing), keyed by the band's hash.
//   Everything is in the primary key, so a lookup reads the index alone; on
//   SQLite the table is that index (WITHOUT ROWID), so 24 million rows at a
//   million listings are stored once. A listing's rows are found again by
//   their keys, which its stored shingles give (no index by listing).
// Existing listings get theirs from the `description-sketches` job.
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("description_sketches")
    .addColumn("listingId", "integer", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull())
    .addColumn("seeded", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("shingles", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("removedAt", "text")
    .execute();
  await db.schema
    .createIndex("description_sketches_removed_idx")
    .on("description_sketches")
    .column("removedAt")
    .where("removedAt", "is not", null)
    .execute();
  let bands = db.schema
    .createTable("description_bands")
    .addColumn("key", "integer", (c) => c.notNull())
    .addColumn("band", "integer", (c) => c.notNull())
    .addColumn("listingId", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("description_bands_pk", ["key", "band", "listingId"]);
  if (!postgres) bands = bands.modifyEnd(sql`without rowid`);
  await bands.execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("description_bands").execute();
  await db.schema.dropTable("description_sketches").execute();
}
