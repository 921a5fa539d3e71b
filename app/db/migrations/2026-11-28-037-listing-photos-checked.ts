import type { Kysely } from "kysely";

// Frozen migration. When the trust checks last looked at a listing's photos
// and found none in another owner's ad (ADR 074, 078): the date the listing
// page's 'What Bodima checked' panel gives. Null: not checked (listings from
// before the checks, or held for a match). Existing rows stay null until
// their owner next saves them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("listings").addColumn("photosCheckedAt", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("listings").dropColumn("photosCheckedAt").execute();
}
