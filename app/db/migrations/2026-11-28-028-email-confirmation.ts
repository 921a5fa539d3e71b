import type { Kysely } from "kysely";

// Frozen migration. Email addresses are confirmed by a link (ADR 066):
// `emailConfirmedAt` is our own dated record of when an account's address was
// confirmed (better-auth keeps only the 0/1 `emailVerified`). Nothing ever
// checked an address before this migration: sign-up stored 0, and the 1s came
// from accounts made by the seed or the command line without any check. So
// every existing account starts unconfirmed (it signs in and keeps its
// listings; ADR 066 says what waits for the confirmation), and none is marked
// confirmed by this migration.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("emailConfirmedAt", "text").execute();
  await db.updateTable("users").set({ emailVerified: 0 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("emailConfirmedAt").execute();
}
