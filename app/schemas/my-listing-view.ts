import type { MessageKey } from "~/i18n/keys.generated";
import type { DELETED_STATUS, ListingStatus } from "./listing-status";
import type { Reason } from "./message";

/**
 * What the My Ads list shows of an owner's listings (types only): built by
 * app/models/owner-listings.server.ts, shown by app/components/dashboard/.
 */

/** Every state but deleted: My Ads never lists what its owner deleted (ADR 020). */
export type OwnerListingStatus = Exclude<ListingStatus, typeof DELETED_STATUS>;

export type OwnerListing = {
  id: number;
  slug: string;
  title: string;
  status: OwnerListingStatus;
  createdAt: string;
  expiresAt: string;
  daysLeft: number;
  views: number;
  /** Why a moderator or reports hid it (status 'hidden'), shown to the owner. */
  hiddenReason: Reason | null;
  /** Why it is held for review (status 'pending'): a sentence per thing the checks found (ADR 078). */
  heldReasons: MessageKey[];
};

/** What the My Ads list shows of one listing (serialised from the loader). */
export type MyAd = Pick<
  OwnerListing,
  "id" | "slug" | "title" | "status" | "createdAt" | "daysLeft" | "views" | "hiddenReason" | "heldReasons"
>;
