import type { Kysely } from "kysely";

// Frozen migration (docs/performance.md): where a bulk load (the synthetic seed) keeps the
// definitions of the indexes it set aside until it has built them again, so a
// killed load loses none (app/db/bulk-load.server.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("bulk_load_set_aside_indexes")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("definition", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("bulk_load_set_aside_indexes").execute();
}
