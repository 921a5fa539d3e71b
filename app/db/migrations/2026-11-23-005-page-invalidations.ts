import { type Kysely, PostgresAdapter } from "kysely";

// Frozen migration. The page cache's invalidation log (ADR 012): every write
// that changes a public page adds a row in its own transaction; every process
// that serves pages reads the rows it has not seen yet, a few times a second.
// listingId null means "every page"; viewsOnly 1 means only the view counts
// changed (the listing's own pages, not the lists).
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("page_invalidations")
    .addColumn("id", "integer", (c) =>
      pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn("listingId", "integer")
    .addColumn("viewsOnly", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("page_invalidations_created_idx").on("page_invalidations").column("createdAt").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("page_invalidations").execute();
}
