import type { Kysely } from "kysely";

// Frozen migration. Every email goes through this table first so none is
// lost while the SMTP server is down; the sender polls (status, nextAttemptAt).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("to", "text", (c) => c.notNull())
    .addColumn("replyTo", "text")
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("html", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lastError", "text")
    .addColumn("nextAttemptAt", "text", (c) => c.notNull())
    .addColumn("sentAt", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("outbox_due_idx").on("outbox").columns(["status", "nextAttemptAt"]).execute();
  await db.schema.createIndex("outbox_created_idx").on("outbox").column("createdAt").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("outbox").execute();
}
