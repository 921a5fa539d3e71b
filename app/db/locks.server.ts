import { type Kysely, sql } from "kysely";
import { isPostgres } from "./search.server";

/**
 * Serializes count-then-act decisions about one row inside a transaction: an
 * owner's listing limit (their users row), a listing's 'Already let?' answers
 * arriving together (its listings row). PostgreSQL locks the row until commit,
 * so concurrent runs queue. SQLite needs nothing: Kysely's SQLite driver has
 * one connection and runs one transaction at a time (BEGIN IMMEDIATE, ADR 034).
 */
async function lockRow(trx: Kysely<any>, table: "users" | "listings", id: string | number): Promise<void> {
  if (!isPostgres(trx)) return;
  await sql`select id from ${sql.table(table)} where id = ${id} for update`.execute(trx);
}

export const lockOwner = (trx: Kysely<any>, userId: string) => lockRow(trx, "users", userId);
export const lockListing = (trx: Kysely<any>, listingId: number) => lockRow(trx, "listings", listingId);

/**
 * Serializes count-then-insert decisions about one name (an email address's
 * alerts) that has no row of its own to lock: a transaction-scoped advisory
 * lock on PostgreSQL; SQLite already serializes.
 */
export async function lockName(trx: Kysely<any>, name: string): Promise<void> {
  if (!isPostgres(trx)) return;
  await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
}
