import type { Kysely } from "kysely";

// Frozen migration (ADR 047): what a student pays before moving in, beside
// the key money listings already had. Both are null for "not stated": a listing
// posted before this says nothing, and nothing is guessed for it.
export async function up(db: Kysely<any>): Promise<void> {
  // Months of rent asked in advance, 0 to 12.
  await db.schema.alterTable("listings").addColumn("advanceMonths", "integer").execute();
  // A refundable deposit in LKR.
  await db.schema.alterTable("listings").addColumn("deposit", "integer").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("listings").dropColumn("deposit").execute();
  await db.schema.alterTable("listings").dropColumn("advanceMonths").execute();
}
