import type { Kysely } from "kysely";

// Frozen migration. Alert manage links are random, stored hashed, expiring and
// revocable (ADR 067): one row per link sent (every alert email carries a
// fresh one), keyed by the SHA-256 of its token; `expiresAt` 30 days after it
// was made. Revoking deletes every row of the address. search_alerts.manageKey
// stays: it now only recognises the old signed links (ADR 058) so that their
// page can offer to email a fresh one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("alert_manage_links")
    .addColumn("tokenHash", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("expiresAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("alert_manage_links_email_idx").on("alert_manage_links").column("email").execute();
  await db.schema.createIndex("alert_manage_links_expiry_idx").on("alert_manage_links").column("expiresAt").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("alert_manage_links").execute();
}
