import { type Kysely, sql } from "kysely";

// Frozen migration. Browse sinks listings whose availability students doubt
// (ADR 059): each search first asks which public listings
// are unconfirmed. Almost none are, so a partial index holds only them, in
// expiry order: the question reads the live ones and nothing else, on both
// databases. The predicate is written out so each database matches it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("listings_unconfirmed_idx")
    .on("listings")
    .columns(["expiresAt", "id"])
    .where(sql<boolean>`"unconfirmedSince" is not null and "status" = 'active'`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("listings_unconfirmed_idx").execute();
}
