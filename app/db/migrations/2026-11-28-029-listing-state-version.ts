import { type Kysely, sql } from "kysely";

// Frozen migration. A listing's state is decided by its owner, its reminder
// links, moderators and suspensions (ADR 063):
// - "stateVersion" counts those decisions; an emailed availability link
//   answers only the version it was issued for, so it works once and not
//   after a later decision. A constant default: no table rewrite on either
//   database (PostgreSQL 11+ and SQLite keep it in the catalogue).
// - "statusBeforeHide" is the state a hide (moderator, reports, suspension)
//   took the listing from; a restore or a reinstatement returns it there.
//   Nullable without a default: no rewrite either.
// Owners suspended before this migration kept their 'let' and 'pending'
// listings as they were ('let' ones public with their phone number): every
// listing of a suspended owner not hidden or deleted is hidden now, as a
// suspension hides them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("listings")
    .addColumn("stateVersion", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("listings").addColumn("statusBeforeHide", "text").execute();
  await db
    .updateTable("listings")
    .set({
      statusBeforeHide: sql`"status"`,
      status: "hidden",
      hiddenBy: "suspension",
      stateVersion: sql`"stateVersion" + 1`,
    })
    .where("status", "in", ["active", "expired", "let", "pending"])
    .where("userId", "in", (eb: any) => eb.selectFrom("users").select("id").where("status", "=", "suspended"))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("listings").dropColumn("statusBeforeHide").execute();
  await db.schema.alterTable("listings").dropColumn("stateVersion").execute();
}
