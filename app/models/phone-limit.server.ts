import type { DB } from "~/db/db.server";
import { lockName } from "~/db/locks.server";
import { toE164 } from "~/lib/phone";
import { countLiveAdsForPhone, phoneLock } from "./phone-holders.server";

/**
 * The 3-ad limit per phone number, across all accounts (ADR 076), beside the
 * 3 ads per account: an owner with several accounts cannot put a fourth ad up
 * with one number. Posting, and editing an ad onto another number, ask this
 * inside their transaction, so it counts and inserts under the number's lock
 * (phoneLock) as codes and confirmations do: two accounts posting with one
 * number at once cannot both pass the count.
 */

export const MAX_LISTINGS_PER_PHONE = 3;

/** Whether the number as typed already has the most live ads it may have (no lock: the cheap early answer). */
export async function phoneAtLimit(db: DB, typed: string, now: Date): Promise<boolean> {
  const e164 = toE164(typed);
  return e164 !== null && (await countLiveAdsForPhone(db, e164, now)) >= MAX_LISTINGS_PER_PHONE;
}

/**
 * Inside a transaction: takes the number's lock and answers whether one more
 * ad with it would pass the limit. A number that is no Sri Lankan number is
 * not counted (it gets no E.164 form, ADR 076).
 */
export async function phoneFullUnderLock(trx: DB, typed: string, now: Date): Promise<boolean> {
  const e164 = toE164(typed);
  if (e164 === null) return false;
  await lockName(trx, phoneLock(e164));
  return (await countLiveAdsForPhone(trx, e164, now)) >= MAX_LISTINGS_PER_PHONE;
}

/**
 * Editing: whether moving listing `listingId` onto the number as typed would
 * pass the limit. Keeping its own number never does (it counts already).
 */
export async function phoneFullForEdit(trx: DB, listingId: number, typed: string, now: Date): Promise<boolean> {
  const row = await trx
    .selectFrom("listings")
    .select("contactPhoneE164")
    .where("id", "=", listingId)
    .executeTakeFirst();
  const e164 = toE164(typed);
  if (e164 === null || row?.contactPhoneE164 === e164) return false;
  return phoneFullUnderLock(trx, typed, now);
}
