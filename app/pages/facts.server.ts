import { t } from "~/i18n";
import { formatClock } from "~/lib/format";
import type { ListingFacts } from "~/schemas/listing-facts";
import type { FactLine, FactsView } from "~/schemas/listing-view";
import "virtual:catalogue/listing-server";
import "virtual:catalogue/browse-server";

/** The facts asked of every listing; beds only of shared rooms and hostels, so they are never 'missing'. */
const ASKED = ["bills", "meals", "bathroom", "curfew", "visitors", "cooking"] as const;

/**
 * The listing page's facts (ADR 051): a line with an icon for each stated
 * one, the house rules as chips, and one line naming what the owner has not
 * stated, so a student knows what to ask when they call.
 */
export function factsView(listing: ListingFacts): FactsView {
  const lines: FactLine[] = [];
  if (listing.bills) lines.push({ kind: "bills", text: t(`listingServer.facts.bills.${listing.bills}`) });
  if (listing.meals) lines.push({ kind: "meals", text: t(`listingServer.facts.meals.${listing.meals}`) });
  if (listing.bathroom) lines.push({ kind: "bathroom", text: t(`listingServer.facts.bathroom.${listing.bathroom}`) });
  if (listing.bedsFree !== null && listing.bedsTotal !== null)
    lines.push({
      kind: "beds",
      text: t("listingServer.facts.beds", { free: listing.bedsFree, total: listing.bedsTotal }),
    });
  if (listing.curfew)
    lines.push({
      kind: "curfew",
      text:
        listing.curfew === "none"
          ? t("listingServer.facts.curfew.none")
          : t("listingServer.facts.curfew.at", { time: formatClock(listing.curfew) }),
    });
  const rules: string[] = [];
  if (listing.visitors) rules.push(t(`listingServer.facts.visitors.${listing.visitors}`));
  if (listing.cooking) rules.push(t(`listingServer.facts.cooking.${listing.cooking}`));
  const missing = ASKED.filter((fact) => listing[fact] === null).map((fact) => t(`listingServer.facts.names.${fact}`));
  return {
    lines,
    rules,
    notStated: missing.length > 0 ? t("listingServer.facts.notStated", { facts: missing.join(", ") }) : null,
  };
}

/** Up to three short facts a card shows: what most students filter for, free beds first (a hostel's news). */
export function cardFacts(listing: ListingFacts): string[] {
  const chips: string[] = [];
  if (listing.bedsFree) chips.push(t("browseServer.card.facts.bedsFree", { count: listing.bedsFree }));
  if (listing.bills === "included") chips.push(t("browseServer.card.facts.billsIncluded"));
  if (listing.meals === "included") chips.push(t("browseServer.card.facts.mealsIncluded"));
  if (listing.bathroom === "attached") chips.push(t("browseServer.card.facts.attachedBathroom"));
  if (listing.curfew === "none") chips.push(t("browseServer.card.facts.noCurfew"));
  return chips.slice(0, 3);
}
