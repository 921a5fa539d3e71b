import type { Kysely } from "kysely";

// Frozen migration (ADR 089): what each ad did per day in Sri Lanka's time zone
// (YYYY-MM-DD, Asia/Colombo): views, saves to a shortlist, and taps on 'Call Now',
// WhatsApp and Viber. Counts only, no visitor data; one row per listing and day.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("listing_daily_counts")
    .addColumn("listingId", "integer", (c) => c.notNull().references("listings.id").onDelete("cascade"))
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("views", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("saves", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("calls", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("whatsapp", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("viber", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("listing_daily_counts_pk", ["listingId", "day"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("listing_daily_counts").execute();
}
