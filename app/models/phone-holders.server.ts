import type { DB } from "~/db/db.server";
import { DELETED_STATUS, EXPIRED_STATUS, LISTED_STATUS } from "~/schemas/listing-status";

/**
 * One phone, one owner (ADR 076): who holds a confirmed number, and the ads
 * it carries across accounts.
 */

/**
 * The lock (lockName) under which everything that counts or claims a number
 * runs: codes sent to it, confirming it, and posting an ad with it (the 3 ads
 * per phone across accounts), so two of them cannot both pass a count.
 */
export function phoneLock(e164: string): string {
  return `phone:${e164}`;
}

/**
 * How long a fresh confirmation holds the number for its account before that
 * account has any ad with it: time to post the ad the number was confirmed for.
 */
export const FRESH_HOLD_DAYS = 7;

/**
 * Ads with this E.164 number that are live: every state but deleted and
 * expired (an active one past its expiry is expired), so pending, hidden and
 * let ones count. Across all accounts; the index on contactPhoneE164 finds them.
 */
export async function countLiveAdsForPhone(db: DB, e164: string, now: Date, userId?: string): Promise<number> {
  let query = db
    .selectFrom("listings")
    .where("contactPhoneE164", "=", e164)
    .where("status", "not in", [DELETED_STATUS, EXPIRED_STATUS])
    .where((eb) => eb.or([eb("status", "!=", LISTED_STATUS), eb("expiresAt", ">", now.toISOString())]));
  if (userId) query = query.where("userId", "=", userId);
  const row = await query.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Whether another account than `userId` holds `phone`: one that confirmed it
 * and is suspended (whenever it confirmed it), or one whose confirmation
 * stands (not taken over) and that has live ads with it or confirmed it in
 * the last FRESH_HOLD_DAYS days. Callers that act on the answer hold the
 * number's lock (phoneLock), so two accounts cannot both pass.
 */
export async function numberHeldByAnother(db: DB, userId: string, phone: string, now: Date): Promise<boolean> {
  const holders = await db
    .selectFrom("phone_confirmations as c")
    .innerJoin("users as u", "u.id", "c.userId")
    .select(["c.userId", "c.confirmedAt", "c.endedAt", "u.status"])
    .where("c.phone", "=", phone)
    .where("c.userId", "!=", userId)
    .execute();
  if (holders.some((holder) => holder.status === "suspended")) return true;
  const freshSince = new Date(now.getTime() - FRESH_HOLD_DAYS * 24 * 60 * 60 * 1000).toISOString();
  for (const holder of holders) {
    if (holder.endedAt !== null) continue;
    if (holder.confirmedAt > freshSince) return true;
    if ((await countLiveAdsForPhone(db, phone, now, holder.userId)) > 0) return true;
  }
  return false;
}
