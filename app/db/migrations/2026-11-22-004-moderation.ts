import type { Kysely } from "kysely";

// Frozen migration (moderation: ADR 008; photo uploads: ADR 009).
// - audit_log: every moderator (or automatic) action: who, when, what, why.
// - listings.hiddenBy: why a listing is hidden ('moderator' | 'reports' | 'suspension'),
//   so reinstating an owner restores only what their suspension hid.
// - reports by (listingId, status): counting pending reporters per listing.
// - listing_photos by (listingId, createdAt): finding uploads never attached.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("audit_log")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("actorId", "text") // null: the system (automatic hiding)
    .addColumn("actorEmail", "text")
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("targetType", "text", (c) => c.notNull()) // listing | user | report
    .addColumn("targetId", "text", (c) => c.notNull())
    .addColumn("reason", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("audit_log_created_idx").on("audit_log").column("createdAt").execute();
  await db.schema
    .createIndex("audit_log_target_idx")
    .on("audit_log")
    .columns(["targetType", "targetId", "createdAt"])
    .execute();

  await db.schema.alterTable("listings").addColumn("hiddenBy", "text").execute();

  await db.schema
    .createIndex("reports_listing_status_idx")
    .on("reports")
    .columns(["listingId", "status", "reporterEmail"])
    .execute();
  await db.schema
    .createIndex("listing_photos_unattached_idx")
    .on("listing_photos")
    .columns(["listingId", "createdAt"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("listing_photos_unattached_idx").execute();
  await db.schema.dropIndex("reports_listing_status_idx").execute();
  await db.schema.alterTable("listings").dropColumn("hiddenBy").execute();
  await db.schema.dropTable("audit_log").execute();
}
