import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen migration (docs/performance.md): indexes for two slow kinds of query of the cold benchmark.
const INDEXES = [
  // The count behind "N boarding places found" under a city or a faculty filter
  // read a table row for each match: the planner took `listings_city_idx` (city,
  // createdAt) or `listings_faculty_idx` (university, faculty, createdAt) and
  // checked status and expiry in the rows, 11-17 ms at 100,000 listings for a
  // city of 6,000-13,000 listings. These start with the equalities such a count
  // has and hold every other filter, so it reads index entries only (0.5-0.7 ms);
  // a university alone already had one (`listings_filter_idx`).
  {
    name: "listings_city_count_idx",
    columns: ["status", "city", "expiresAt", "university", "propertyType", "gender", "price"],
  },
  {
    name: "listings_faculty_count_idx",
    columns: ["status", "university", "faculty", "expiresAt", "city", "propertyType", "gender", "price"],
  },
  // "Apartments, cheapest first" walked the price index from the cheapest
  // listing of any kind and checked the type on each entry: apartments start at
  // LKR 20,000, so it read every cheaper room first (9 ms at 100,000 listings,
  // 97 ms at 1,000,000). "A university, cheapest first" took the university's
  // matches and sorted them (12 ms at 100,000). These give each of the two
  // filters its own price order (the columns of `listings_price_idx` after the
  // equality), so a first page reads about 20 entries; a price walk keeps the
  // two filters indexable (app/models/listing.server.ts, OWN_PRICE_ORDER).
  {
    name: "listings_type_price_idx",
    columns: [
      "status",
      "propertyType",
      "price",
      "createdAt desc",
      "id desc",
      "expiresAt",
      "university",
      "city",
      "gender",
    ],
  },
  {
    name: "listings_university_price_idx",
    columns: [
      "status",
      "university",
      "price",
      "createdAt desc",
      "id desc",
      "expiresAt",
      "propertyType",
      "city",
      "gender",
    ],
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const { name, columns } of INDEXES) await db.schema.createIndex(name).on("listings").columns(columns).execute();
  // Statistics for the new indexes, so the planner weighs them at once (ADR 011: SQLite reads every entry).
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`analyze listings`.execute(db);
  } else {
    await sql`pragma analysis_limit = 0`.execute(db);
    await sql`analyze listings`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { name } of INDEXES) await db.schema.dropIndex(name).execute();
}
