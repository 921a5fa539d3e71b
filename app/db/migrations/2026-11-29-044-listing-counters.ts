import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen migration (ADR 111): a listing's view counts move out of `listings` into
// a narrow table of their own. Every counted view rewrote its listing's whole
// row (about 2.7 KB, with 24 indexes): on PostgreSQL each update left a dead row
// and cleared the page's all-visible bit, so counting browse's results read the
// table instead of its index alone until the next vacuum (ADR 110's numbers).
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("listing_counters")
    .addColumn("listingId", "integer", (c) => c.primaryKey().references("listings.id").onDelete("cascade"))
    .addColumn("views", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("uniqueViews", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lastViewed", "text")
    // Room on each page for the next version of its rows: an update stays on its page (HOT) and
    // adds nothing to the primary key's index.
    .$call((b) => (postgres ? b.modifyEnd(sql`with (fillfactor = 70)`) : b))
    .execute();
  await sql`insert into listing_counters ("listingId", views, "uniqueViews", "lastViewed")
    select id, views, "uniqueViews", "lastViewed" from listings
    where views > 0 or "uniqueViews" > 0 or "lastViewed" is not null`.execute(db);
  for (const column of ["views", "uniqueViews", "lastViewed"])
    await db.schema.alterTable("listings").dropColumn(column).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("listings")
    .addColumn("views", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("listings")
    .addColumn("uniqueViews", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("listings").addColumn("lastViewed", "text").execute();
  await sql`update listings set views = c.views, "uniqueViews" = c."uniqueViews", "lastViewed" = c."lastViewed"
    from listing_counters c where c."listingId" = listings.id`.execute(db);
  await db.schema.dropTable("listing_counters").execute();
}
