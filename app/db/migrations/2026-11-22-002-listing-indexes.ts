import type { Kysely } from "kysely";

// Frozen migration. Indexes measured at 100,000 listings (README budgets):
// every public query filters on status = 'active' and expiresAt > now, so
// expiresAt goes LAST in each index: a range on it as a second column made
// SQLite pick it for everything and sort 100,000 rows for page 1.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("listings_status_created_idx").execute();
  await db.schema.dropIndex("listings_status_price_idx").execute();
  await db.schema
    .createIndex("listings_public_created_idx")
    .on("listings")
    .columns(["status", "createdAt", "expiresAt"])
    .execute();
  await db.schema
    .createIndex("listings_public_price_idx")
    .on("listings")
    .columns(["status", "price", "expiresAt"])
    .execute();
  // Covering index for counts under any combination of filters.
  await db.schema
    .createIndex("listings_filter_idx")
    .on("listings")
    .columns(["status", "university", "propertyType", "gender", "city", "price", "expiresAt"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("listings_filter_idx").execute();
  await db.schema.dropIndex("listings_public_price_idx").execute();
  await db.schema.dropIndex("listings_public_created_idx").execute();
  await db.schema.createIndex("listings_status_created_idx").on("listings").columns(["status", "createdAt"]).execute();
  await db.schema.createIndex("listings_status_price_idx").on("listings").columns(["status", "price"]).execute();
}
