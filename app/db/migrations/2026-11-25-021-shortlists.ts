import type { Kysely } from "kysely";

// Frozen migration. A shortlist per browser (ADR 054): kept on the
// server under the salted hash of the browser's signed visitor id, so a shared
// link (shareCode, point 2) shows the list as it is now. Its places stay in it
// whatever becomes of the listing (expired, hidden, deleted) until removed; a
// listing's rows go only if the listing row itself is ever purged.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("shortlists")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("visitorKey", "text", (c) => c.notNull().unique())
    .addColumn("shareCode", "text", (c) => c.unique())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("shortlist_items")
    .addColumn("shortlistId", "text", (c) => c.notNull().references("shortlists.id").onDelete("cascade"))
    .addColumn("listingId", "integer", (c) => c.notNull().references("listings.id").onDelete("cascade"))
    .addColumn("addedAt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("shortlist_items_pk", ["shortlistId", "listingId"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("shortlist_items").execute();
  await db.schema.dropTable("shortlists").execute();
}
