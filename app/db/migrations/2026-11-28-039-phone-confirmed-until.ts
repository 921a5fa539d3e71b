import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen migration (ADR 084). Browse's 'Phone confirmed only' (ADR 080) probed
// phone_confirmations once for every public listing it read: when few ads have
// a confirmed phone, the count and the page read them all. The listing now
// carries when its owner's standing confirmation of the ad's number lapses,
// `phoneConfirmedUntil` (confirmedAt + 180 days, ADR 076; null: none), so the
// filter is `phoneConfirmedUntil > now` and a lapse needs no job. Two partial
// indexes hold only the listings that have one: status first as in the other
// filters' count indexes, then the time and the expiry, so the count reads
// the standing ones alone; and the same in newest-first order, so a page of
// up to 10,000 matches reads 20 entries instead of sorting them all. Filled
// from the standing confirmations (not ended), 180 days being the rule on
// this day.
const CONFIRMATION_DAYS = 180;
const DAY_MS = 24 * 60 * 60 * 1000;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("listings").addColumn("phoneConfirmedUntil", "text").execute();
  await db.schema
    .createIndex("listings_phone_confirmed_idx")
    .on("listings")
    .columns(["status", "phoneConfirmedUntil", "expiresAt"])
    .where(sql<boolean>`"phoneConfirmedUntil" is not null`)
    .execute();
  await db.schema
    .createIndex("listings_phone_confirmed_newest_idx")
    .on("listings")
    .columns(["status", "createdAt desc", "id desc", "phoneConfirmedUntil", "expiresAt"])
    .where(sql<boolean>`"phoneConfirmedUntil" is not null`)
    .execute();
  const standing = (await db
    .selectFrom("phone_confirmations")
    .select(["userId", "phone", (eb) => eb.fn.max("confirmedAt").as("confirmedAt")])
    .where("endedAt", "is", null)
    .groupBy(["userId", "phone"])
    .execute()) as { userId: string; phone: string; confirmedAt: string }[];
  for (const { userId, phone, confirmedAt } of standing)
    await db
      .updateTable("listings")
      .set({ phoneConfirmedUntil: new Date(Date.parse(confirmedAt) + CONFIRMATION_DAYS * DAY_MS).toISOString() })
      .where("userId", "=", userId)
      .where("contactPhoneE164", "=", phone)
      .execute();
  // Statistics for the new column and indexes alone (a whole `analyze` reads every index at scale).
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`analyze listings ("phoneConfirmedUntil")`.execute(db);
  } else {
    await sql`pragma analysis_limit = 0`.execute(db);
    await sql`analyze listings_phone_confirmed_idx`.execute(db);
    await sql`analyze listings_phone_confirmed_newest_idx`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("listings_phone_confirmed_newest_idx").execute();
  await db.schema.dropIndex("listings_phone_confirmed_idx").execute();
  await db.schema.alterTable("listings").dropColumn("phoneConfirmedUntil").execute();
}
