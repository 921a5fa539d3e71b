import type { Kysely } from "kysely";

// Frozen migration (ADR 092): the number the ad's WhatsApp link opens, when the
// owner gave one apart from the contact number (as typed; null: the contact number).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("listings").addColumn("whatsappPhone", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("listings").dropColumn("whatsappPhone").execute();
}
