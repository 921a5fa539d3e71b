import type { MetaDescriptor } from "react-router";
import { findFaculty, findUniversity } from "~/directory/universities";
import { t } from "~/i18n";
import { formatShortDate } from "~/lib/format";
import type { SearchAlert } from "~/models/search-alerts.server";
import { type BrowseFilters, parseBrowseFilters } from "~/schemas/browse-filters";
import { alertQuery, filterLabels } from "./browse-page.server";
import "virtual:catalogue/alerts";

// The search-alert pages' texts (ADR 058), written on the
// server in the reader's language, as on browse.

/**
 * What an alert for this browse query watches: its canonical query and its
 * words; `mailLabel` is the same without anything typed in (ADR 067): an
 * email to an address that did not ask for it must not carry a stranger's text.
 */
export function alertSearch(query: string): { query: string; labels: string[]; label: string; mailLabel: string } {
  const { filters } = parseBrowseFilters(new URLSearchParams(query));
  const labels = filterLabels(filters);
  const structured = chosenFromLists(filters);
  const typed = Object.keys(filters).length !== Object.keys(structured).length;
  const words = [...filterLabels(structured), ...(typed ? [t("alerts.typedWords")] : [])];
  return {
    query: alertQuery(filters),
    labels,
    label: labels.length > 0 ? labels.join(", ") : t("alerts.everything"),
    mailLabel: words.length > 0 ? words.join(", ") : t("alerts.everything"),
  };
}

/**
 * The filters chosen from our own lists: the search words and the place typed
 * in go, and a university or faculty only stays when the directory has it
 * (a link can name any text there).
 */
function chosenFromLists(filters: BrowseFilters): BrowseFilters {
  const { search: _search, location: _location, university, faculty, ...rest } = filters;
  const known = university ? findUniversity(university) : undefined;
  return {
    ...rest,
    ...(known ? { university } : {}),
    ...(known && faculty && findFaculty(known, faculty) ? { faculty } : {}),
  };
}

/** An alert as the manage page lists it. */
export type AlertRow = { id: string; label: string; waiting: boolean; lastSent: string | null; href: string };

export function toAlertRow(alert: SearchAlert): AlertRow {
  return {
    id: alert.id,
    label: alert.label,
    waiting: alert.confirmedAt === null,
    lastSent: alert.lastSentAt ? t("alerts.manage.lastSent", { date: formatShortDate(alert.lastSentAt) }) : null,
    href: alert.query ? `/browse?${alert.query}` : "/browse",
  };
}

/** The head of an alert page: its title, and kept out of search engines (personal links). */
export function alertPageMeta(title: string): MetaDescriptor[] {
  return [{ title }, { name: "robots", content: "noindex" }];
}
