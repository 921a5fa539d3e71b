import { sql } from "kysely";
import type { Logger } from "pino";
import type { DB } from "./db.server";
import { isPostgres } from "./search.server";

/**
 * After a bulk load, give the query planner fresh statistics. On PostgreSQL
 * VACUUM also sets the visibility map (index-only counts) and clears the
 * dead rows left by setting slugs after insert; without it, browse at 100,000
 * listings took 150-570 ms instead of about 30 ms until autovacuum ran.
 * SQLite reads every index entry (about a second at 1,000,000 listings):
 * `pragma optimize` samples only the first entries of each index, which made
 * 'status' look selective and a faculty filter take seconds (ADR 011).
 */
export async function refreshStatistics(db: DB): Promise<void> {
  if (isPostgres(db)) {
    await sql`vacuum analyze listings`.execute(db);
    await sql`vacuum analyze listing_photos`.execute(db);
  } else {
    await sql`pragma analysis_limit = 0`.execute(db);
    await sql`analyze`.execute(db);
  }
}

/**
 * A PostgreSQL server with autovacuum off keeps every dead row a view count or
 * an edit leaves: index-only counts turn into table reads and browse slows
 * down hour by hour (ADR 110 measured 14.5 ms instead of 2.9 ms for one count
 * after 20 minutes of traffic). Said once at start-up; SQLite has no such setting.
 */
export async function warnAboutDatabase(db: DB, log: Pick<Logger, "warn">): Promise<void> {
  if (!isPostgres(db)) return;
  const { rows } = await sql<{ autovacuum: string }>`show autovacuum`.execute(db);
  if (rows[0]?.autovacuum === "off")
    log.warn(
      "PostgreSQL runs with autovacuum off: dead rows pile up and counts and searches slow down as listings are viewed and edited. Turn autovacuum on (it is on by default), or run VACUUM ANALYZE often.",
    );
}
