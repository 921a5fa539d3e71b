import type { MetaDescriptor } from "react-router";
import { type MessageKey, t } from "~/i18n";
import { daysSinceConfirmed } from "~/lib/days-left";
import { formatLkr } from "~/lib/format";
import { shownChecks } from "~/models/listing-checks.server";
import { SHORTLIST_MAX } from "~/models/shortlist.server";
import type { ListingDetail } from "~/schemas/listing-view";
import type { ShortlistActionResult, ShortlistNotice, ShortlistRow } from "~/schemas/shortlist-view";
import { cardBadges } from "./checks.server";
import { photosForSaver } from "./data-saver.server";
import { universityLabel } from "./directory-labels.server";
import { distanceLine } from "./distance.server";
import { cardFacts } from "./facts.server";
import { telHref } from "./listing-page.server";
import "virtual:catalogue/browse-server";
import "virtual:catalogue/listing-server";
import "virtual:catalogue/shortlist";

// The shortlist page's rows and texts, written on the server (ADR 054):
// the browser gets finished strings, as on browse and the listing page.

/** A saved place as the comparison shows it; a place no longer public keeps only its ad number. */
export function toShortlistRow(listing: ListingDetail, phonesEnabled: boolean, dataSaver = false): ShortlistRow {
  if (!listing.isPublic) return { id: Number(listing.id), available: false };
  return {
    id: Number(listing.id),
    slug: listing.slug,
    title: listing.title,
    available: true,
    photo: photosForSaver(listing.photos.slice(0, 1), dataSaver)[0] ?? null,
    universityLabel: universityLabel(listing.university),
    priceLine: t("browseServer.card.pricePerMonth", { price: formatLkr(listing.price) }),
    moveIn: listing.moveInCost === null ? null : formatLkr(listing.moveInCost),
    distance: distanceLine(listing),
    typeLabel: t(`browseServer.card.propertyType.${listing.propertyType}`),
    genderLabel: t(`browseServer.card.gender.${listing.gender}`),
    facts: cardFacts(listing),
    checked: cardBadges(shownChecks(listing.checks, phonesEnabled)),
    confirmed: listing.availabilityUnconfirmed
      ? t("listingServer.availability.unconfirmed")
      : t("listingServer.availability.confirmed", { days: daysSinceConfirmed(listing.expiresAt) }),
    phoneHref: telHref(listing.contactPhone),
  };
}

export function shortlistMeta(siteName: string): MetaDescriptor[] {
  return [
    { title: t("shortlist.meta.title", { siteName }) },
    { name: "description", content: t("shortlist.meta.description", { siteName }) },
    // One browser's own list: nothing for search engines.
    { name: "robots", content: "noindex" },
  ];
}

const DONE: ReadonlySet<ShortlistNotice> = new Set(["saved", "removed", "shared", "unshared"]);

/** The action's answer: what happened, in the reader's language, and the ids now saved. */
export function shortlistResult(
  notice: ShortlistNotice,
  back: string | null,
  saved: readonly number[],
): ShortlistActionResult {
  const key: MessageKey = `shortlist.notices.${notice}`;
  return {
    status: DONE.has(notice) ? (notice as ShortlistActionResult["status"]) : "refused",
    message: t(key, { max: SHORTLIST_MAX }),
    back,
    saved: [...saved],
  };
}

/** The shared copy's head tags: for the person given the link, not for search engines. */
export function sharedShortlistMeta(siteName: string): MetaDescriptor[] {
  return [
    { title: t("shortlist.shared.meta.title", { siteName }) },
    { name: "description", content: t("shortlist.shared.meta.description", { siteName }) },
    { name: "robots", content: "noindex" },
  ];
}
