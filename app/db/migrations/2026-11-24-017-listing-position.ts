import type { Kysely } from "kysely";

// Frozen migration (ADR 049): where a listing is, in decimal degrees (WGS 84),
// from the owner's map link or the coordinates they typed; null when neither
// gave one (the listing then counts from its city's centre, marked approximate).
// Kept exact; what the public sees is rounded to about 100 m (app/geo).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("listings").addColumn("latitude", "double precision").execute();
  await db.schema.alterTable("listings").addColumn("longitude", "double precision").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("listings").dropColumn("longitude").execute();
  await db.schema.alterTable("listings").dropColumn("latitude").execute();
}
