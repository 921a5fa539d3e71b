import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen migration (ADR 117): on PostgreSQL, `listings` is vacuumed after 1% of its rows change (and
// 200 more) instead of PostgreSQL's default 20%. Browse's counts read only an index as long as the
// table's visibility map says its pages hold no changed rows; every edit clears a page's bit until
// the next vacuum. In a 30-minute soak at 20,000 listings the default let 3,800 dead rows pile up
// without a vacuum, and one count read the table for 5,548 of its 10,001 rows (28 ms instead of about
// 3). New listings are counted the same way (the insert thresholds). SQLite has no vacuum to tune.
const SETTINGS = {
  autovacuum_vacuum_scale_factor: 0.01,
  autovacuum_vacuum_threshold: 200,
  autovacuum_vacuum_insert_scale_factor: 0.01,
  autovacuum_vacuum_insert_threshold: 200,
};

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  const settings = Object.entries(SETTINGS).map(([name, value]) => `${name} = ${value}`);
  await sql`alter table listings set (${sql.raw(settings.join(", "))})`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table listings reset (${sql.raw(Object.keys(SETTINGS).join(", "))})`.execute(db);
}
