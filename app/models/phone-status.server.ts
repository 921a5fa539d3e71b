import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { PHONE_CODE_RULES } from "./phone-confirmation.server";
import { countLiveAdsForPhone } from "./phone-holders.server";

/**
 * An owner's phone confirmations as their pages show them (ADR 076): the
 * numbers that stand (the post form says 'Confirmed' at once), and those whose
 * 180 days have passed while an ad of theirs still carries them (My Ads asks
 * to confirm them again; the badge lapses until they do).
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export type OwnerPhones = {
  /** Numbers (E.164) confirmed by this owner in the last 180 days and not taken over since. */
  confirmed: string[];
  /** Numbers (E.164) of the owner's live ads whose confirmation by this owner lapsed and was not renewed. */
  lapsed: string[];
};

export async function ownerPhones(
  db: DB,
  userId: string,
  now = currentTime(),
  days = PHONE_CODE_RULES.confirmationDays,
): Promise<OwnerPhones> {
  const rows = await db
    .selectFrom("phone_confirmations")
    .select(["phone", "confirmedAt"])
    .where("userId", "=", userId)
    .where("endedAt", "is", null)
    .execute();
  const since = new Date(now.getTime() - days * DAY_MS).toISOString();
  const confirmed = [...new Set(rows.filter((row) => row.confirmedAt > since).map((row) => row.phone))];
  const lapsed: string[] = [];
  for (const phone of new Set(rows.map((row) => row.phone))) {
    if (confirmed.includes(phone)) continue;
    if ((await countLiveAdsForPhone(db, phone, now, userId)) > 0) lapsed.push(phone);
  }
  return { confirmed, lapsed };
}
