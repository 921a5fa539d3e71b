import type { Kysely } from "kysely";

// Frozen migration. Jobs run once however many processes and servers share the
// database (ADR 039): a row per timed job says when it is next due and
// who holds it until when; a process claims it with one conditional UPDATE.
// outbox.claimedBy names the sender holding a message's claim, so a sender whose
// claim was taken over sends nothing more (it checks before each message).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("job_leases")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("holder", "text")
    .addColumn("leaseUntil", "text")
    .addColumn("nextRunAt", "text", (c) => c.notNull())
    .addColumn("lastRunAt", "text")
    .execute();
  await db.schema.alterTable("outbox").addColumn("claimedBy", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("outbox").dropColumn("claimedBy").execute();
  await db.schema.dropTable("job_leases").execute();
}
