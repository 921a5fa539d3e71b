import type { Kysely } from "kysely";

// Frozen migration (issue 9: reports need independent reporters, ADR 017).
// - reports.originGroup: the reporter's network (IPv4 /24, IPv6 /64) as text.
// - reports.visitorKey: salted hash of the reporter's signed visitor id (bodima_vid),
//   null when the report came without one.
// - reports.reporterUserId: the signed-in reporter's account, else null.
// - reports.notifiedAt: when moderators were emailed about the report (at once,
//   or in the hourly digest); null while it waits for the digest. Reports from
//   before this migration were each emailed at the time, so they count as notified.
// - by (listingId, originGroup, createdAt): the per-network cap on one listing.
// - by (notifiedAt, listingId): the digest job finds what is waiting.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("reports").addColumn("originGroup", "text").execute();
  await db.schema.alterTable("reports").addColumn("visitorKey", "text").execute();
  await db.schema.alterTable("reports").addColumn("reporterUserId", "text").execute();
  await db.schema.alterTable("reports").addColumn("notifiedAt", "text").execute();
  await db
    .updateTable("reports")
    .set((eb) => ({ notifiedAt: eb.ref("createdAt") }))
    .execute();
  await db.schema
    .createIndex("reports_listing_origin_idx")
    .on("reports")
    .columns(["listingId", "originGroup", "createdAt"])
    .execute();
  await db.schema.createIndex("reports_notified_idx").on("reports").columns(["notifiedAt", "listingId"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("reports_notified_idx").execute();
  await db.schema.dropIndex("reports_listing_origin_idx").execute();
  for (const column of ["notifiedAt", "reporterUserId", "visitorKey", "originGroup"]) {
    await db.schema.alterTable("reports").dropColumn(column).execute();
  }
}
