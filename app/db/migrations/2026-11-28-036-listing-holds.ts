import type { Kysely } from "kysely";

// Frozen migration. Listings held for review (ADR 078): one row per hold, open
// while decidedAt is null. `signals` is the JSON array of what the checks found
// (app/schemas/review-hold.ts); `decision` 'approved' | 'rejected'; `decidedBy`
// the moderator's user id; `digestMailedAt` when moderators' digest named it.
// The queue reads the open holds oldest first; the digest the open ones not yet
// mailed; a listing's open hold is found by (listingId, decidedAt).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("listing_holds")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("listingId", "integer", (c) => c.notNull())
    .addColumn("signals", "text", (c) => c.notNull())
    .addColumn("heldAt", "text", (c) => c.notNull())
    .addColumn("decidedAt", "text")
    .addColumn("decision", "text")
    .addColumn("decidedBy", "text")
    .addColumn("decisionReason", "text")
    .addColumn("digestMailedAt", "text")
    .execute();
  await db.schema
    .createIndex("listing_holds_listing_idx")
    .on("listing_holds")
    .columns(["listingId", "decidedAt"])
    .execute();
  await db.schema.createIndex("listing_holds_open_idx").on("listing_holds").columns(["decidedAt", "heldAt"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("listing_holds").execute();
}
