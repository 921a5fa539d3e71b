import { t } from "~/i18n";
import { currentTime } from "~/lib/clock";
import { formatDayDate, formatMonthYear } from "~/lib/format";
import type { ListingChecks } from "~/schemas/listing-checks";
import type { ChecksView } from "~/schemas/listing-view";
import "virtual:catalogue/listing-server";
import "virtual:catalogue/browse-server";

const DAY_MS = 86_400_000;

/**
 * What Bodima checked, in the reader's language (ADR 080): the listing page's
 * panel, each line only when true and dated, and always what nobody checked;
 * and the cards' badges. Written here, so the browser gets finished strings.
 */
export function checksView(checks: ListingChecks, siteName: string, now: Date = currentTime()): ChecksView {
  const lines: string[] = [];
  if (checks.phoneConfirmedAt)
    lines.push(t("listingServer.checks.phone", { date: formatDayDate(checks.phoneConfirmedAt) }));
  if (checks.emailConfirmed) lines.push(t("listingServer.checks.email"));
  if (checks.photosCheckedAt)
    lines.push(t("listingServer.checks.photos", { date: formatDayDate(checks.photosCheckedAt) }));
  if (checks.memberSince)
    lines.push(t("listingServer.checks.memberSince", { siteName, month: formatMonthYear(checks.memberSince) }));
  if (checks.availabilityConfirmedAt) {
    const days = Math.max(0, Math.floor((now.getTime() - Date.parse(checks.availabilityConfirmedAt)) / DAY_MS));
    lines.push(t("listingServer.availability.confirmed", { days }));
  }
  return {
    heading: t("listingServer.checks.heading", { siteName }),
    lines,
    notChecked: t("listingServer.checks.notVisited", { siteName }),
  };
}

/** A card's badges, a word or two each and at most two: the phone confirmed, the photos checked. */
export function cardBadges(checks: ListingChecks): string[] {
  const badges: string[] = [];
  if (checks.phoneConfirmedAt) badges.push(t("browseServer.card.badges.phone"));
  if (checks.photosCheckedAt) badges.push(t("browseServer.card.badges.photos"));
  return badges;
}
