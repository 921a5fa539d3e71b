import type { Kysely } from "kysely";

// Frozen migration. Phones confirmed by a one-time code (ADR 076):
// - phone_codes: one row per code sent (or asked of a verify service), keyed by
//   a random id; `codeHash` is an HMAC of the code (null when the provider keeps
//   the code itself, ADR 075); `tries` counts checks (at most 3); a code is good
//   until `expiresAt` (10 minutes) and once `usedAt` is set it is spent. The rows
//   are also the count behind the per-number caps (3 per 10 minutes, 5 a day).
// - phone_confirmations: our own dated record of who confirmed which number and
//   when; `endedAt` is set when another account took the number over.
// - sms_budget: texts sent per UTC day, the global budget that fails closed.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("phone_codes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("phone", "text", (c) => c.notNull())
    .addColumn("codeHash", "text")
    .addColumn("tries", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("expiresAt", "text", (c) => c.notNull())
    .addColumn("usedAt", "text")
    .execute();
  await db.schema.createIndex("phone_codes_phone_idx").on("phone_codes").columns(["phone", "createdAt"]).execute();
  await db.schema
    .createIndex("phone_codes_user_idx")
    .on("phone_codes")
    .columns(["userId", "phone", "createdAt"])
    .execute();
  await db.schema
    .createTable("phone_confirmations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("phone", "text", (c) => c.notNull())
    .addColumn("confirmedAt", "text", (c) => c.notNull())
    .addColumn("endedAt", "text")
    .execute();
  await db.schema
    .createIndex("phone_confirmations_phone_idx")
    .on("phone_confirmations")
    .columns(["phone", "confirmedAt"])
    .execute();
  await db.schema
    .createIndex("phone_confirmations_user_idx")
    .on("phone_confirmations")
    .columns(["userId", "phone", "confirmedAt"])
    .execute();
  await db.schema
    .createTable("sms_budget")
    .addColumn("day", "text", (c) => c.primaryKey())
    .addColumn("sent", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("sms_budget").execute();
  await db.schema.dropTable("phone_confirmations").execute();
  await db.schema.dropTable("phone_codes").execute();
}
