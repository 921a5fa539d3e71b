import type { Kysely } from "kysely";

// Frozen migration (ADR 052): whether the owner chose to show the
// exact point (1) or, as every listing so far, the position rounded to about
// 100 m (0). Places (migration 018) of existing listings stay as they are.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("listings")
    .addColumn("exactPosition", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("listings").dropColumn("exactPosition").execute();
}
