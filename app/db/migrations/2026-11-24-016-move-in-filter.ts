import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen migration (ADR 047): the move-in total as a column the
// 'Max move-in cost' filter can use an index for. Worked out by the database
// from the terms, so no write path can store a total that disagrees with them:
// null while the advance is not stated, else key money + deposit + the advance
// months' rent (app/lib/move-in.ts says the same in TypeScript).
const TOTAL = sql`case when "advanceMonths" is null then null
  else coalesce("keymoneyFee", 0) + coalesce("deposit", 0) + "advanceMonths" * "price" end`;

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // Stored: PostgreSQL has no virtual generated columns before 18. Adding it
    // rewrites the table once (a migration, not a request).
    await sql`alter table listings add column "moveInCost" integer generated always as (${TOTAL}) stored`.execute(db);
  } else {
    // SQLite can add only a virtual generated column to a table; its index stores the values.
    await sql`alter table listings add column "moveInCost" integer generated always as (${TOTAL}) virtual`.execute(db);
  }
  // The filter's count reads index entries only: status, then the total's range, then expiry.
  await sql`create index listings_move_in_idx on listings (status, "moveInCost", "expiresAt")`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index listings_move_in_idx`.execute(db);
  await sql`alter table listings drop column "moveInCost"`.execute(db);
}
