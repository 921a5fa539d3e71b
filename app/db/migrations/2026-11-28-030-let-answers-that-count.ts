import type { Kysely } from "kysely";

// Frozen migration. 'Already let?' answers must cost something (ADR 064):
// - let_reports.userId: the signed-in account behind an answer (one per
//   account per listing, and an account that answered before the owner
//   confirmed never counts again there); null for anonymous answers.
// - let_reports.counts: 1 when the answer counted (a visitor seen hours before,
//   or an account; not in the cool-down after a confirmation; not from a
//   network or account that answered before it). Answers stored before this
//   migration were never checked, so they count for nothing (0).
// - listing_views by visitor and time: "was this visitor seen opening a
//   listing hours ago?" is one index lookup on both databases.
// - let_owner_mails: when the owner was last emailed that students doubt a
//   listing (at most one such email a week per listing).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("let_reports").addColumn("userId", "text").execute();
  await db.schema
    .alterTable("let_reports")
    .addColumn("counts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("listing_views_visitor_time_idx")
    .on("listing_views")
    .columns(["visitorKey", "viewedAt"])
    .execute();
  await db.schema
    .createTable("let_owner_mails")
    .addColumn("listingId", "integer", (c) => c.primaryKey().references("listings.id").onDelete("cascade"))
    .addColumn("sentAt", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("let_owner_mails").execute();
  await db.schema.dropIndex("listing_views_visitor_time_idx").execute();
  await db.schema.alterTable("let_reports").dropColumn("counts").execute();
  await db.schema.alterTable("let_reports").dropColumn("userId").execute();
}
