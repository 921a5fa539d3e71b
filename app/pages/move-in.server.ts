import { t } from "~/i18n";
import { formatAmount, formatLkr } from "~/lib/format";
import { type MoveInTerms, moveInCost } from "~/lib/move-in";
import "virtual:catalogue/listing-server";

/**
 * 'Move-in cost: LKR 105,000 (key money 30,000 + 3 months' rent 75,000)', for
 * cards and the listing page (ADR 047), or null while the owner has not said
 * what advance they ask: a total without it would be a guess.
 */
export function moveInLine(terms: MoveInTerms): string | null {
  const cost = moveInCost(terms);
  if (!cost) return null;
  if (cost.total === 0) return t("listingServer.moveIn.none");
  const parts: string[] = [];
  if (cost.keyMoney > 0) parts.push(t("listingServer.moveIn.keyMoney", { amount: formatAmount(cost.keyMoney) }));
  if (cost.deposit > 0) parts.push(t("listingServer.moveIn.deposit", { amount: formatAmount(cost.deposit) }));
  if (cost.advance > 0) {
    parts.push(t("listingServer.moveIn.advance", { months: cost.advanceMonths, amount: formatAmount(cost.advance) }));
  }
  return t("listingServer.moveIn.line", { total: formatLkr(cost.total), parts: parts.join(" + ") });
}
