import type { Kysely } from "kysely";

// Frozen migration. Search alerts by email (ADR 058): one row
// per address and saved search. `confirmedAt` stays null until the address's
// owner follows the confirmation link (double opt-in) and nothing but that
// link is ever sent to it before; `seenUpTo` is the highest ad number already
// considered, so a digest lists only ads posted since; `stoppedAt` marks an
// alert stopped from an email's link (undone from the same page for a week).
// `label` is what it watches in words, written once in its language (the
// language of its emails, which never changes). `manageKey` finds all alerts of one address from the manage link of any of
// its emails (a hash of that link's token, never the address itself).
// The outbox gains `headers` (JSON) for the List-Unsubscribe headers.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("search_alerts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("manageKey", "text", (c) => c.notNull())
    .addColumn("locale", "text", (c) => c.notNull())
    .addColumn("query", "text", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("confirmedAt", "text")
    .addColumn("seenUpTo", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lastSentAt", "text")
    .addColumn("stoppedAt", "text")
    .addUniqueConstraint("search_alerts_email_query_key", ["email", "query"])
    .execute();
  await db.schema.createIndex("search_alerts_manage_idx").on("search_alerts").column("manageKey").execute();
  await db.schema
    .createIndex("search_alerts_due_idx")
    .on("search_alerts")
    .columns(["confirmedAt", "lastSentAt"])
    .execute();
  await db.schema.alterTable("outbox").addColumn("headers", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("outbox").dropColumn("headers").execute();
  await db.schema.dropTable("search_alerts").execute();
}
