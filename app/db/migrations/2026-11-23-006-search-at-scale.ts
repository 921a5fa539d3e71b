import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen migration. Search and filters at 1,000,000 listings (ADR 011).

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  // Newest first, walking one index that also holds every equality and price
  // filter: the first page of a filter that matches 1 listing in 100 reads
  // about 1,000 index entries and no table rows. The id makes the order total
  // (createdAt desc, id desc) without a sort. On SQLite it holds the location
  // too, checked per entry on such a walk. PostgreSQL would then count
  // location matches by scanning the whole index (33 ms at 100,000 listings)
  // instead of from the trigram index (12 ms), so there it does not.
  const filterColumns = ["university", "city", "propertyType", "gender", "price", ...(pg ? [] : ["location"])];
  await db.schema.dropIndex("listings_public_created_idx").execute();
  await db.schema
    .createIndex("listings_newest_idx")
    .on("listings")
    .columns(["status", "createdAt", "id", "expiresAt", ...filterColumns])
    .execute();
  // Price order with newest first among equal prices, again without a sort
  // (a price_desc page walks it backwards and sorts only within one price).
  // It holds the filters too: matches are not spread evenly over prices (few
  // apartments are cheap), so "apartments, cheapest first" may walk most of
  // it; checked in the index that took 0.1-0.2 s at 1,000,000 listings instead
  // of 1.3-1.5 s reading a table row per entry.
  await db.schema.dropIndex("listings_public_price_idx").execute();
  await db.schema
    .createIndex("listings_price_idx")
    .on("listings")
    .columns([
      "status",
      "price",
      "createdAt desc",
      "id desc",
      "expiresAt",
      ...filterColumns.filter((c) => c !== "price"),
    ])
    .execute();
  // A faculty is chosen within a university; neither index above holds it.
  await db.schema
    .createIndex("listings_faculty_idx")
    .on("listings")
    .columns(["university", "faculty", "createdAt"])
    .execute();

  // The location filter is a case-insensitive substring: only a trigram index answers it without a scan.
  if (pg) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index listings_location_trgm_idx on listings using gin (lower(location) gin_trgm_ops)`.execute(db);
    return;
  }
  // Prefix indexes up to ten characters: FTS5 answers a longer prefix by
  // merging every matching word's list in memory first, 30 ms for 'campus'
  // (in nearly every listing) at 1,000,000 listings, 2.5 ms from its own
  // prefix index. Words of eleven characters or more are rare in listings.
  // The triggers of migration 001 keep writing to the table by its name.
  await sql`drop table listings_fts`.execute(db);
  await createTextSearchTable(db, "2 3 4 5 6 7 8 9 10");

  await sql`create virtual table listings_location_fts using fts5(
    location, content='listings', content_rowid='id', tokenize='trigram')`.execute(db);
  await sql`insert into listings_location_fts(listings_location_fts) values ('rebuild')`.execute(db);
  await sql`create trigger listings_location_fts_insert after insert on listings begin
    insert into listings_location_fts(rowid, location) values (new.id, coalesce(new.location, ''));
  end`.execute(db);
  await sql`create trigger listings_location_fts_delete after delete on listings begin
    insert into listings_location_fts(listings_location_fts, rowid, location) values ('delete', old.id, coalesce(old.location, ''));
  end`.execute(db);
  await sql`create trigger listings_location_fts_update after update of location on listings begin
    insert into listings_location_fts(listings_location_fts, rowid, location) values ('delete', old.id, coalesce(old.location, ''));
    insert into listings_location_fts(rowid, location) values (new.id, coalesce(new.location, ''));
  end`.execute(db);
}

/** The full-text table of migration 001 with other prefix lengths, filled from `listings`. */
async function createTextSearchTable(db: Kysely<any>, prefixes: string): Promise<void> {
  await sql`create virtual table listings_fts using fts5(
    title, description, location, university, faculty,
    content='listings', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix=${sql.lit(prefixes)})`.execute(
    db,
  );
  await sql`insert into listings_fts(listings_fts) values ('rebuild')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index listings_location_trgm_idx`.execute(db);
  } else {
    await sql`drop table listings_fts`.execute(db);
    await createTextSearchTable(db, "2 3 4");
    for (const trigger of ["insert", "delete", "update"]) {
      await sql.raw(`drop trigger listings_location_fts_${trigger}`).execute(db);
    }
    await sql`drop table listings_location_fts`.execute(db);
  }
  await db.schema.dropIndex("listings_faculty_idx").execute();
  await db.schema.dropIndex("listings_price_idx").execute();
  await db.schema
    .createIndex("listings_public_price_idx")
    .on("listings")
    .columns(["status", "price", "expiresAt"])
    .execute();
  await db.schema.dropIndex("listings_newest_idx").execute();
  await db.schema
    .createIndex("listings_public_created_idx")
    .on("listings")
    .columns(["status", "createdAt", "expiresAt"])
    .execute();
}
