import type { Migration } from "kysely/migration";
import * as initial from "./2026-11-22-001-initial";
import * as listingIndexes from "./2026-11-22-002-listing-indexes";
import * as outbox from "./2026-11-22-003-outbox";
import * as moderation from "./2026-11-22-004-moderation";
import * as pageInvalidations from "./2026-11-23-005-page-invalidations";
import * as searchAtScale from "./2026-11-23-006-search-at-scale";
import * as reportIndependence from "./2026-11-23-007-report-independence";
import * as reasonsAsKeys from "./2026-11-24-008-reasons-as-keys";
import * as searchInThreeScripts from "./2026-11-24-009-search-in-three-scripts";
import * as preferredLanguage from "./2026-11-24-010-preferred-language";
import * as countAndPriceIndexes from "./2026-11-24-011-count-and-price-indexes";
import * as bulkLoadSetAside from "./2026-11-24-012-bulk-load-set-aside";
import * as jobLeases from "./2026-11-24-013-job-leases";
import * as searchWords from "./2026-11-24-014-search-words";
import * as moveInCost from "./2026-11-24-015-move-in-cost";
import * as moveInFilter from "./2026-11-24-016-move-in-filter";
import * as listingPosition from "./2026-11-24-017-listing-position";
import * as listingPlace from "./2026-11-24-018-listing-place";
import * as listingFacts from "./2026-11-24-019-listing-facts";
import * as exactPosition from "./2026-11-24-020-exact-position";
import * as shortlists from "./2026-11-25-021-shortlists";
import * as availabilityReminders from "./2026-11-25-022-availability-reminders";
import * as alreadyLet from "./2026-11-25-023-already-let";
// 024 was taken by a change that was reverted (ADR 057): a database that ran it keeps its name.
import * as searchAlerts from "./2026-11-25-025-search-alerts";
import * as unconfirmedIndex from "./2026-11-25-026-unconfirmed-index";
import * as publicLocation from "./2026-11-28-027-public-location";
import * as emailConfirmation from "./2026-11-28-028-email-confirmation";
import * as listingStateVersion from "./2026-11-28-029-listing-state-version";
import * as letAnswersThatCount from "./2026-11-28-030-let-answers-that-count";
import * as alertManageLinks from "./2026-11-28-031-alert-manage-links";
import * as photoFingerprints from "./2026-11-28-032-photo-fingerprints";
import * as phoneConfirmations from "./2026-11-28-033-phone-confirmations";
import * as listingPhoneE164 from "./2026-11-28-034-listing-phone-e164";
import * as listingHolds from "./2026-11-28-036-listing-holds";
import * as listingPhotosChecked from "./2026-11-28-037-listing-photos-checked";
import * as descriptionSketches from "./2026-11-28-038-description-sketches";
import * as phoneConfirmedUntil from "./2026-11-28-039-phone-confirmed-until";
import * as chatApps from "./2026-11-28-040-chat-apps";
import * as listingDailyCounts from "./2026-11-29-041-listing-daily-counts";
import * as whatsappNumber from "./2026-11-29-042-whatsapp-number";
import * as usersCreatedIndex from "./2026-11-29-043-users-created-index";
import * as listingCounters from "./2026-11-29-044-listing-counters";
import * as listingsAutovacuum from "./2026-11-30-045-listings-autovacuum";
import * as universityAndCityWalkIndexes from "./2026-11-30-046-university-and-city-walk-indexes";
import * as listingStatusCounts from "./2026-12-01-047-listing-status-counts";

/** Every migration, listed explicitly and in order (names sort by date). */
export const migrations: Record<string, Migration> = {
  "2026-11-22-001-initial": initial,
  "2026-11-22-002-listing-indexes": listingIndexes,
  "2026-11-22-003-outbox": outbox,
  "2026-11-22-004-moderation": moderation,
  "2026-11-23-005-page-invalidations": pageInvalidations,
  "2026-11-23-006-search-at-scale": searchAtScale,
  "2026-11-23-007-report-independence": reportIndependence,
  "2026-11-24-008-reasons-as-keys": reasonsAsKeys,
  "2026-11-24-009-search-in-three-scripts": searchInThreeScripts,
  "2026-11-24-010-preferred-language": preferredLanguage,
  "2026-11-24-011-count-and-price-indexes": countAndPriceIndexes,
  "2026-11-24-012-bulk-load-set-aside": bulkLoadSetAside,
  "2026-11-24-013-job-leases": jobLeases,
  "2026-11-24-014-search-words": searchWords,
  "2026-11-24-015-move-in-cost": moveInCost,
  "2026-11-24-016-move-in-filter": moveInFilter,
  "2026-11-24-017-listing-position": listingPosition,
  "2026-11-24-018-listing-place": listingPlace,
  "2026-11-24-019-listing-facts": listingFacts,
  "2026-11-24-020-exact-position": exactPosition,
  "2026-11-25-021-shortlists": shortlists,
  "2026-11-25-022-availability-reminders": availabilityReminders,
  "2026-11-25-023-already-let": alreadyLet,
  "2026-11-25-025-search-alerts": searchAlerts,
  "2026-11-25-026-unconfirmed-index": unconfirmedIndex,
  "2026-11-28-027-public-location": publicLocation,
  "2026-11-28-028-email-confirmation": emailConfirmation,
  "2026-11-28-029-listing-state-version": listingStateVersion,
  "2026-11-28-030-let-answers-that-count": letAnswersThatCount,
  "2026-11-28-031-alert-manage-links": alertManageLinks,
  "2026-11-28-032-photo-fingerprints": photoFingerprints,
  "2026-11-28-033-phone-confirmations": phoneConfirmations,
  "2026-11-28-034-listing-phone-e164": listingPhoneE164,
  "2026-11-28-036-listing-holds": listingHolds,
  "2026-11-28-037-listing-photos-checked": listingPhotosChecked,
  "2026-11-28-038-description-sketches": descriptionSketches,
  "2026-11-28-039-phone-confirmed-until": phoneConfirmedUntil,
  "2026-11-28-040-chat-apps": chatApps,
  "2026-11-29-041-listing-daily-counts": listingDailyCounts,
  "2026-11-29-042-whatsapp-number": whatsappNumber,
  "2026-11-29-043-users-created-index": usersCreatedIndex,
  "2026-11-29-044-listing-counters": listingCounters,
  "2026-11-30-045-listings-autovacuum": listingsAutovacuum,
  "2026-11-30-046-university-and-city-walk-indexes": universityAndCityWalkIndexes,
  "2026-12-01-047-listing-status-counts": listingStatusCounts,
};
