import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen migration (ADR 120): indexes for the slowest statements left in the cold benchmark.
// A university's or a city's listings newest first walked `listings_university_idx` or
// `listings_city_idx` (the column and createdAt) and read a table row for every entry to check
// status and expiry: 12.8 ms for page 600 of a university at 100,000 listings, 2.6 ms for page 100.
// A city in price order took its matches from `listings_city_count_idx` and sorted them all:
// 14-19 ms for a city of 3,000-5,000 listings. These start with the equalities and the order, and
// hold every other filter such a page or its count checks, so they read index entries only
// (0.8 ms and 0.1-1.7 ms).
const INDEXES = [
  {
    name: "listings_university_newest_idx",
    columns: ["status", "university", "createdAt", "id", "expiresAt", "propertyType", "city", "gender", "price"],
  },
  {
    name: "listings_city_newest_idx",
    columns: ["status", "city", "createdAt", "id", "expiresAt", "university", "propertyType", "gender", "price"],
  },
  {
    name: "listings_city_price_idx",
    columns: [
      "status",
      "city",
      "price",
      "createdAt desc",
      "id desc",
      "expiresAt",
      "university",
      "propertyType",
      "gender",
    ],
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const { name, columns } of INDEXES) await db.schema.createIndex(name).on("listings").columns(columns).execute();
  // The planner weighs the new indexes at once; SQLite reads every entry for their statistics (ADR 011).
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) await sql`pragma analysis_limit = 0`.execute(db);
  await sql`analyze listings`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { name } of INDEXES) await db.schema.dropIndex(name).execute();
}
