import type { Kysely } from "kysely";

// Frozen migration (ADR 069): an account's preferred language, for the emails it
// receives (en, si or ta). Existing accounts read English, as before.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("locale", "text", (c) => c.notNull().defaultTo("en"))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("locale").execute();
}
