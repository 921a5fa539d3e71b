import { type Kysely, sql } from "kysely";

// Frozen migration. A perceptual fingerprint per photo, to find one owner's
// photo in another owner's ad (ADR 074). Not tied to listing_photos or
// listings by a foreign key: a fingerprint outlives its photo and listing for
// 180 days (`removedAt`), since a copier often waits for the real ad to go.
// - hash: the 64-bit pHash as 16 hex digits (text is the same on both
//   databases; 64-bit integers are not safe in JavaScript numbers), and its
//   four 16-bit chunks, each indexed with the hash and the photo id, so the
//   lookup reads its candidates from the indexes alone (one random row read
//   per candidate made it 20 times slower at 300,000 photos).
// - mirrored: the same of the image flipped left to right (chunks kept so
//   that a stored photo can be checked again without reading its file).
// - exact: SHA-256 of the decoded pixels.
// - seeded: 1 for demo and synthetic photos (drawn from a dozen scenes, so
//   they match each other): never a match for anyone, and left out of the
//   chunk indexes (partial indexes), so a million synthetic rows sharing ten
//   hashes never crowd a lookup. A query uses them only with the literal
//   `seeded = 0` (SQLite matches a partial index's condition by its text).
// Existing photos get theirs from the `photo-fingerprints` job (it reads the
// stored files; a migration never reads the photo storage).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("photo_fingerprints")
    .addColumn("photoId", "text", (c) => c.primaryKey())
    .addColumn("listingId", "integer")
    .addColumn("userId", "text", (c) => c.notNull())
    .addColumn("seeded", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("hash", "text", (c) => c.notNull())
    .addColumn("chunk0", "integer", (c) => c.notNull())
    .addColumn("chunk1", "integer", (c) => c.notNull())
    .addColumn("chunk2", "integer", (c) => c.notNull())
    .addColumn("chunk3", "integer", (c) => c.notNull())
    .addColumn("mirrored", "text", (c) => c.notNull())
    .addColumn("mirrored0", "integer", (c) => c.notNull())
    .addColumn("mirrored1", "integer", (c) => c.notNull())
    .addColumn("mirrored2", "integer", (c) => c.notNull())
    .addColumn("mirrored3", "integer", (c) => c.notNull())
    .addColumn("exact", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("removedAt", "text")
    .execute();
  for (const i of [0, 1, 2, 3]) {
    await db.schema
      .createIndex(`photo_fingerprints_chunk${i}_idx`)
      .on("photo_fingerprints")
      .columns([`chunk${i}`, "hash", "photoId"])
      .where(sql.ref("seeded"), "=", sql.lit(0))
      .execute();
  }
  await db.schema.createIndex("photo_fingerprints_listing_idx").on("photo_fingerprints").column("listingId").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("photo_fingerprints").execute();
}
