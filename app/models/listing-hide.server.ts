import type { ExpressionBuilder } from "kysely";
import type { Database } from "~/db/schema";
import { HIDDEN_STATUS, type ListingStatus, RESTORABLE_STATUSES, RESTORED_BY_DEFAULT } from "~/schemas/listing-status";

/**
 * The columns every hide and every restore writes, whoever does it (a
 * moderator, reports, a suspension): a restore returns the listing to the
 * state the hide took it from, and each counts as a decision that voids the
 * emailed availability links issued before it (ADR 063).
 */

type Listings = ExpressionBuilder<Database, "listings">;

/** One more decision about the listing's state: links issued for the one before stop working. */
export const nextStateVersion = (eb: Listings) => eb("stateVersion", "+", 1);

/**
 * Hides the listing (`hiddenBy`: 'moderator', 'reports' or 'suspension'). A
 * listing hidden already keeps the state its first hide took it from.
 */
export function hiddenColumns(hiddenBy: "moderator" | "reports" | "suspension", reason: string, at: string) {
  return (eb: Listings) => ({
    status: HIDDEN_STATUS,
    hiddenBy,
    hiddenReason: reason,
    statusBeforeHide: eb
      .case()
      .when("status", "=", HIDDEN_STATUS)
      .then(eb.ref("statusBeforeHide"))
      .else(eb.ref("status"))
      .end(),
    stateVersion: nextStateVersion(eb),
    updatedAt: at,
  });
}

/** Shows the listing again as it was before it was hidden. */
export function restoredColumns(at: string) {
  return (eb: Listings) => ({
    status: eb
      .case()
      .when("statusBeforeHide", "in", [...RESTORABLE_STATUSES])
      .then(eb.ref("statusBeforeHide").$castTo<ListingStatus>())
      .else(RESTORED_BY_DEFAULT)
      .end(),
    hiddenBy: null,
    hiddenReason: null,
    statusBeforeHide: null,
    stateVersion: nextStateVersion(eb),
    updatedAt: at,
  });
}
