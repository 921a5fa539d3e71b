// What the server sends the browser about a shortlist (ADR 054). Types only.

import type { ListingPhoto } from "./listing-view";

/**
 * A saved place in the comparison. One that is no longer public (expired,
 * let, hidden, deleted, its owner suspended) is named by its ad number alone:
 * nothing its owner wrote, who may still edit a hidden one.
 */
export type ShortlistRow =
  | { id: number; available: false }
  | {
      id: number;
      slug: string;
      title: string;
      available: true;
      photo: ListingPhoto | null;
      universityLabel: string;
      /** 'LKR 15,000/month' */
      priceLine: string;
      /** 'LKR 105,000', or null: the advance is not stated. */
      moveIn: string | null;
      /** '1.4 km from University of Moratuwa, Moratuwa · about 23 min walk (estimate)', or null. */
      distance: string | null;
      typeLabel: string;
      genderLabel: string;
      /** Up to three: 'Bills included', 'Attached bathroom', '2 beds free'. */
      facts: string[];
      /** What Bodima checked, as cards say it (ADR 080): 'Phone confirmed', 'Photos checked'. */
      checked: string[];
      /** 'Availability confirmed 3 days ago' */
      confirmed: string;
      /** tel: link, or null when the number is not dialable. */
      phoneHref: string | null;
    };

/** What the shortlist's action can say happened. */
export type ShortlistNotice =
  | "saved"
  | "removed"
  | "shared"
  | "unshared"
  | "full"
  | "unavailable"
  | "tooMany"
  | "invalid"
  | "origin";

/** What saving, removing or sharing answers (fetcher.data on a card; the page's notice without JavaScript). */
export type ShortlistActionResult = {
  status: "saved" | "removed" | "shared" | "unshared" | "refused";
  /** What happened, in the reader's language. */
  message: string;
  /** Where the visitor was (a path on this site), for the page's 'Back' link. */
  back: string | null;
  /** The ad numbers in the list now. */
  saved: number[];
};
