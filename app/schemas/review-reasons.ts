import type { MessageKey } from "~/i18n/keys.generated";
import type { HoldSignal, ScamSignalId } from "./review-hold";
import "virtual:catalogue/review";

/**
 * The words for what the checks found (ADR 078): a sentence for the owner
 * (My Ads, the decision email) and a label for the moderator, as catalogue
 * keys of the "review" area.
 */

const SCAM_KEYS = {
  "advance-before-viewing": "advancePayment",
  "money-transfer": "moneyTransfer",
  "owner-abroad": "ownerAbroad",
  "no-viewing": "noViewing",
  "shared-phone-or-network": "sharedPhone",
} as const satisfies Record<ScamSignalId, string>;

/** The sentence its owner reads for one signal ('One of its photos also appears in another owner's ad.'). */
export function ownerReasonKey(signal: HoldSignal): MessageKey {
  switch (signal.kind) {
    case "photo-match":
      return "review.owner.photoMatch";
    case "similar-description":
      return "review.owner.similarDescription";
    case "price":
      return "review.owner.price";
    case "scam":
      return `review.owner.scam.${SCAM_KEYS[signal.id]}`;
  }
}

/** The owner's sentences for a hold's signals, each once, in the signals' order. */
export function ownerReasonKeys(signals: readonly HoldSignal[]): MessageKey[] {
  return [...new Set(signals.map(ownerReasonKey))];
}

/** What the rule found, for the moderator (the phrases are shown beside it). */
export function scamRuleKey(id: ScamSignalId): MessageKey {
  return `review.moderator.scam.${SCAM_KEYS[id]}`;
}
