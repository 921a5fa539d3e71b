/**
 * What Bodima itself checked about a listing and its owner, each with its
 * date, null (or false) when not true: the listing page's 'What Bodima
 * checked' panel, the cards' badges and the JSON API's `checks`. Nobody
 * visits places or meets owners, so nothing here says that; and none of it
 * can be bought. Filled by app/models/listing-checks.server.ts.
 */
export type ListingChecks = {
  /** When the owner confirmed the ad's phone number by SMS (ADR 076), if that still stands; null otherwise or while phone confirmation is off. */
  phoneConfirmedAt: string | null;
  /** The owner's email address was confirmed by its emailed link (ADR 066). */
  emailConfirmed: boolean;
  /** When the photos were last checked against other owners' ads and matched none (ADR 074). */
  photosCheckedAt: string | null;
  /** When the owner's account was made. */
  memberSince: string | null;
  /** When the owner last said the place is available (ADR 056); null once students doubt it, or when not listed. */
  availabilityConfirmedAt: string | null;
};
