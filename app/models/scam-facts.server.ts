import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { toE164 } from "~/lib/phone";
import { networkOrigin } from "~/limits/client-ip.server";
import { typicalRent } from "./price-context.server";
import { NEW_ACCOUNT_WINDOW_MS } from "./scam-phrases";
import type { ScamCheckInput } from "./scam-signals";

/**
 * The facts `scoreListing` needs besides the listing's own words (ADR 077):
 * the typical rent of similar places (ADR 048) and how many new accounts used
 * the listing's phone or the poster's network.
 */

/** A Sri Lankan number however it is written (0771234567, +94 77 123 4567, 94771234567): its last nine digits. */
function phoneKey(phone: string): string {
  return phone.replace(/\D/g, "").slice(-9);
}

/**
 * How many accounts made in the last day (NEW_ACCOUNT_WINDOW_MS; the poster's
 * own when it is new) gave `phone` as their phone or a listing's contact
 * phone, and how many signed in from the network (ADR 017's network origin)
 * of `ip`. New accounts are few (sign-ups are limited per network) and found
 * by the index on users.createdAt, so their rows are read and compared here;
 * listings are found by their number's index, never by their owners: one
 * owner with thousands of ads (a seed, an agency) made the join by owner scan
 * every listing, 0.4 s of a SQLite worker's event loop per post at 20,000.
 */
export async function newAccountsSharing(
  db: DB,
  facts: { phone: string; ip: string | null },
  now = currentTime(),
): Promise<ScamCheckInput["newAccounts"]> {
  const since = new Date(now.getTime() - NEW_ACCOUNT_WINDOW_MS).toISOString();
  const key = phoneKey(facts.phone);
  // A listing's number is stored in E.164 beside what was typed (ADR 076); one that is no Sri Lankan number is on no listing.
  const e164 = toE164(facts.phone);
  const [users, listingOwners, sessions] = await Promise.all([
    db.selectFrom("users").select(["id", "phone"]).where("createdAt", ">=", since).execute(),
    e164
      ? db
          .selectFrom("listings")
          .innerJoin("users", "users.id", "listings.userId")
          .select("users.id")
          .where("listings.contactPhoneE164", "=", e164)
          .where("users.createdAt", ">=", since)
          .execute()
      : Promise.resolve([]),
    facts.ip
      ? db
          .selectFrom("sessions")
          .innerJoin("users", "users.id", "sessions.userId")
          .select(["users.id", "sessions.ipAddress"])
          .where("users.createdAt", ">=", since)
          .where("sessions.ipAddress", "is not", null)
          .execute()
      : Promise.resolve([]),
  ]);
  const onPhone = new Set([
    ...users.filter((row) => key.length === 9 && phoneKey(row.phone) === key).map((r) => r.id),
    // Found by the number itself: nothing to compare.
    ...listingOwners.map((r) => r.id),
  ]);
  const origin = facts.ip ? networkOrigin(facts.ip) : null;
  const onNetwork = new Set(
    sessions.filter((row) => row.ipAddress !== null && networkOrigin(row.ipAddress) === origin).map((r) => r.id),
  );
  return { onPhone: onPhone.size, onNetwork: onNetwork.size };
}

/** Everything but the listing's own words and price: spread into scoreListing's input. */
export async function gatherScamFacts(
  db: DB,
  listing: { university: string; propertyType: string; contactPhone: string },
  poster: { ip: string | null },
  now = currentTime(),
): Promise<Pick<ScamCheckInput, "typicalRent" | "newAccounts">> {
  const [range, newAccounts] = await Promise.all([
    typicalRent(db, listing.university, listing.propertyType),
    newAccountsSharing(db, { phone: listing.contactPhone, ip: poster.ip }, now),
  ]);
  return { typicalRent: range, newAccounts };
}
