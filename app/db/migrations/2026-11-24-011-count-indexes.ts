import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen migration (issue 8). The count behind "N boarding places found" under a
// city or a faculty filter read a table row for each match: the planner took
// `listings_city_idx` (city, createdAt) or `listings_faculty_idx` (university,
// faculty, createdAt) and checked status and expiry in the rows, 11-17 ms at
// 100,000 listings for a city of 6,000-13,000 listings. These two indexes start
// with the equalities such a count has and hold every other filter, so the count
// reads index entries only (0.5-0.7 ms); a university alone already had one
// (`listings_filter_idx`). Pages still walk the indexes that give their order.
const COUNT_INDEXES = [
  {
    name: "listings_city_count_idx",
    columns: ["status", "city", "expiresAt", "university", "propertyType", "gender", "price"],
  },
  {
    name: "listings_faculty_count_idx",
    columns: ["status", "university", "faculty", "expiresAt", "city", "propertyType", "gender", "price"],
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const { name, columns } of COUNT_INDEXES)
    await db.schema.createIndex(name).on("listings").columns(columns).execute();
  // Statistics for the new indexes, so the planner weighs them at once (ADR 011: SQLite reads every entry).
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`analyze listings`.execute(db);
  } else {
    await sql`pragma analysis_limit = 0`.execute(db);
    await sql`analyze listings`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { name } of COUNT_INDEXES) await db.schema.dropIndex(name).execute();
}
