import { type Kysely, sql } from "kysely";

// Frozen migration. Browse asks on every search whether any listing's
// availability is unconfirmed (ADR 057): a partial index holds just those,
// so the answer costs nothing while none or few are.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("listings_unconfirmed_idx")
    .on("listings")
    .column("unconfirmedSince")
    .where(sql.ref("unconfirmedSince"), "is not", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("listings_unconfirmed_idx").execute();
}
