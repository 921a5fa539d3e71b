/**
 * Every state a listing can be in (listings.status), and which states each
 * rule lets through: the one place to read them (ADR 063). Types and
 * constants only, shared by models and views.
 */
export const LISTING_STATUSES = ["active", "expired", "let", "pending", "hidden", "deleted"] as const;

/**
 * active: up (until its expiry; the rules treat an active row past it as expired);
 * expired: past its 30 days; let: its owner said it is no longer available
 * (ADR 056); pending: held for review; hidden: by a moderator, by reports or
 * by its owner's suspension (listings.hiddenBy); deleted: its owner deleted it,
 * kept for moderators or a shortlist (ADR 020).
 */
export type ListingStatus = (typeof LISTING_STATUSES)[number];

/**
 * Up and listed: browse, search, the sitemap, saving and price ranges take
 * it until its expiry (app/models/listing-summary.server.ts isPublicNow).
 */
export const LISTED_STATUS = "active" as const satisfies ListingStatus;

/** Past its 30 days as stored (an active row past its expiry counts the same); its page says so. */
export const EXPIRED_STATUS = "expired" as const satisfies ListingStatus;

/** Held for review: its owner sees it, nobody else. */
export const PENDING_STATUS = "pending" as const satisfies ListingStatus;

/** Its owner said it is no longer available: out of browse, its page says so. */
export const LET_STATUS = "let" as const satisfies ListingStatus;

/** Out of every public view, by a moderator, by reports or by its owner's suspension (listings.hiddenBy). */
export const HIDDEN_STATUS = "hidden" as const satisfies ListingStatus;

/** A listing its owner deleted that is kept for moderators (ADR 020) or a shortlist. */
export const DELETED_STATUS = "deleted" as const satisfies ListingStatus;

/** Whose page and API entry the public sees (expired and let ones say so on the page). */
export const PUBLIC_PAGE_STATUSES: readonly ListingStatus[] = [LISTED_STATUS, EXPIRED_STATUS, LET_STATUS];

/** Whose photos anyone may fetch: exactly the listings whose page shows them. */
export const PUBLIC_PHOTO_STATUSES: readonly ListingStatus[] = PUBLIC_PAGE_STATUSES;

/** What its owner (or a reminder link) can mark let: an ad that is up, or said to be let already; hidden and pending ones keep their state. */
export const LETTABLE_STATUSES: readonly ListingStatus[] = PUBLIC_PAGE_STATUSES;

/** What the public can report: whatever it can see. */
export const REPORTABLE_STATUSES: readonly ListingStatus[] = PUBLIC_PAGE_STATUSES;

/**
 * What suspending an owner hides (hiddenBy 'suspension'): every state but
 * hidden already and deleted. Pending ones too, so no review can publish a
 * suspended owner's listing.
 */
export const HIDDEN_BY_SUSPENSION: readonly ListingStatus[] = [
  LISTED_STATUS,
  EXPIRED_STATUS,
  LET_STATUS,
  PENDING_STATUS,
];

/**
 * What a restore or a reinstatement returns a listing to: the state it had
 * before it was hidden (listings.statusBeforeHide), which is one of these.
 */
export const RESTORABLE_STATUSES: readonly ListingStatus[] = HIDDEN_BY_SUSPENSION;

/** A hidden row from before statusBeforeHide was kept (migration 029) comes back as it did then. */
export const RESTORED_BY_DEFAULT = LISTED_STATUS;

/** Whether `status` is one of `set`. */
export function statusIn(set: readonly ListingStatus[], status: ListingStatus): boolean {
  return set.includes(status);
}
