import type { Kysely } from "kysely";

// Frozen migration (ADR 087): whether the owner said the ad's contact number
// is on WhatsApp (1) and on Viber (1); every listing so far says neither (0),
// so the page shows no chat links until its owner ticks them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("listings")
    .addColumn("whatsapp", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("listings")
    .addColumn("viber", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("listings").dropColumn("viber").execute();
  await db.schema.alterTable("listings").dropColumn("whatsapp").execute();
}
