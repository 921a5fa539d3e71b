import type { Kysely } from "kysely";

// Frozen migration. The 14-day availability reminder (ADR 056): the
// expiry a reminder was sent for. Confirming moves the expiry, so a listing is
// reminded once per confirmation. A nullable column without a default: no
// table rewrite on either database, even at a million listings.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("listings").addColumn("reminderFor", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("listings").dropColumn("reminderFor").execute();
}
