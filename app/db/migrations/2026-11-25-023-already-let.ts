import type { Kysely } from "kysely";

// Frozen migration. 'Already let? Tell us' (ADR 057): one row per
// browser (salted visitor key) per listing, with the reporter's network; two
// networks within 7 days mark the listing's availability unconfirmed
// (listings.unconfirmedSince) until its owner confirms. A nullable column
// without a default: no table rewrite at a million listings.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("let_reports")
    .addColumn("listingId", "integer", (c) => c.notNull().references("listings.id").onDelete("cascade"))
    .addColumn("visitorKey", "text", (c) => c.notNull())
    .addColumn("originGroup", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("let_reports_pk", ["listingId", "visitorKey"])
    .execute();
  await db.schema
    .createIndex("let_reports_listing_time_idx")
    .on("let_reports")
    .columns(["listingId", "createdAt"])
    .execute();
  await db.schema.alterTable("listings").addColumn("unconfirmedSince", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("listings").dropColumn("unconfirmedSince").execute();
  await db.schema.dropTable("let_reports").execute();
}
