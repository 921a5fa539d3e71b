import type { Kysely } from "kysely";

// Frozen migration (ADR 092): accounts made in the last day are found by an index
// (each post's scam check reads them, ADR 077) instead of a scan of every account.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("users_created_idx").on("users").column("createdAt").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("users_created_idx").execute();
}
