import { type Kysely, sql } from "kysely";
import { isPostgres } from "./search.server";

/**
 * Serializes per-owner limit checks inside a transaction. PostgreSQL locks the
 * owner's users row until commit, so concurrent count-then-insert runs queue.
 * SQLite needs nothing: Kysely's SQLite driver has one connection and runs one
 * transaction at a time, so the count and insert are already serialized.
 */
export async function lockOwner(trx: Kysely<any>, userId: string): Promise<void> {
  if (!isPostgres(trx)) return;
  await sql`select id from users where id = ${userId} for update`.execute(trx);
}

/**
 * Serializes count-then-mark decisions about one listing inside a transaction
 * (two 'Already let?' answers arriving together must both be counted). Same
 * reasoning as lockOwner: PostgreSQL locks the row, SQLite already serializes.
 */
export async function lockListing(trx: Kysely<any>, listingId: number): Promise<void> {
  if (!isPostgres(trx)) return;
  await sql`select id from listings where id = ${listingId} for update`.execute(trx);
}

/**
 * Serializes count-then-insert decisions about one name (an email address's
 * alerts) that has no row of its own to lock: a transaction-scoped advisory
 * lock on PostgreSQL; SQLite already serializes.
 */
export async function lockName(trx: Kysely<any>, name: string): Promise<void> {
  if (!isPostgres(trx)) return;
  await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
}
