import type { ExpressionBuilder } from "kysely";
import type { DB } from "~/db/db.server";
import type { Database, ListingRow } from "~/db/schema";
import { confirmedAt } from "~/lib/days-left";
import type { ListingChecks } from "~/schemas/listing-checks";
import { LISTED_STATUS } from "~/schemas/listing-status";
import { standsAt } from "./phone-confirmation.server";

/**
 * What Bodima checked about a listing (app/schemas/listing-checks.ts), read
 * in the same query as the listing: its owner joined by primary key, and the
 * owner's standing confirmation of the ad's number from the
 * (userId, phone, confirmedAt) index of phone_confirmations (migration 033).
 * Browse's 'Phone confirmed only' reads the same fact from the listing's own
 * `phoneConfirmedUntil` instead (ADR 084, listing-search.server.ts).
 */

/** The owner's standing confirmations of the listing's own number (ADR 076): another owner's never count. */
function confirmationsOfNumber(eb: ExpressionBuilder<Database, "listings">, now: Date) {
  return eb
    .selectFrom("phone_confirmations")
    .whereRef("phone_confirmations.userId", "=", "listings.userId")
    .whereRef("phone_confirmations.phone", "=", "listings.contactPhoneE164")
    .where((inner) => standsAt(inner, now));
}

/**
 * Listing rows with what their checks need and their view counts (a table of
 * their own, ADR 111); callers add the conditions (columns named with `listings.`).
 */
export function listingsWithChecks(db: DB, now: Date) {
  return db
    .selectFrom("listings")
    .leftJoin("users", "users.id", "listings.userId")
    .leftJoin("listing_counters", "listing_counters.listingId", "listings.id")
    .selectAll("listings")
    .select((eb) => [
      eb.fn.coalesce("listing_counters.views", eb.lit(0)).as("views"),
      eb.fn.coalesce("listing_counters.uniqueViews", eb.lit(0)).as("uniqueViews"),
      "listing_counters.lastViewed",
      "users.emailVerified as ownerEmailVerified",
      "users.createdAt as ownerSince",
      confirmationsOfNumber(eb, now)
        .select((inner) => inner.fn.max("phone_confirmations.confirmedAt").as("at"))
        .as("phoneConfirmedAt"),
    ]);
}

export type CheckColumns = {
  ownerEmailVerified: number | null;
  ownerSince: string | null;
  phoneConfirmedAt: string | null;
};

/** A listing's views as a subquery by its id (null when never viewed), for lists that select few columns. */
export function viewsOf(eb: ExpressionBuilder<Database, "listings">) {
  return eb
    .selectFrom("listing_counters")
    .select("listing_counters.views")
    .whereRef("listing_counters.listingId", "=", "listings.id");
}

/** What listing_counters says of a listing, 0 and null when it was never viewed. */
export type ViewCounts = { views: number; uniqueViews: number; lastViewed: string | null };

export type ListingRowWithChecks = ListingRow & CheckColumns & ViewCounts;

export function checksOf(row: ListingRowWithChecks, now: Date): ListingChecks {
  const listed = row.status === LISTED_STATUS && row.expiresAt > now.toISOString();
  return {
    phoneConfirmedAt: row.phoneConfirmedAt ?? null,
    emailConfirmed: Number(row.ownerEmailVerified ?? 0) === 1,
    photosCheckedAt: row.photosCheckedAt ?? null,
    memberSince: row.ownerSince ?? null,
    availabilityConfirmedAt: listed && row.unconfirmedSince === null ? confirmedAt(row.expiresAt).toISOString() : null,
  };
}

/** The checks a reader is shown: no phone check while phone confirmation is off (`phones.enabled`). */
export function shownChecks(checks: ListingChecks, phonesEnabled: boolean): ListingChecks {
  return phonesEnabled ? checks : { ...checks, phoneConfirmedAt: null };
}
