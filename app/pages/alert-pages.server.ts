import type { MetaDescriptor } from "react-router";
import { t } from "~/i18n";
import { formatShortDate } from "~/lib/format";
import type { SearchAlert } from "~/models/search-alerts.server";
import { parseBrowseFilters } from "~/schemas/browse-filters";
import { alertQuery, filterLabels } from "./browse-page.server";
import "virtual:catalogue/alerts";

// The search-alert pages' texts (issue 13, point 3; ADR 058), written on the
// server in the reader's language, as on browse.

/** What an alert for this browse query watches: its canonical query and its words. */
export function alertSearch(query: string): { query: string; labels: string[]; label: string } {
  const { filters } = parseBrowseFilters(new URLSearchParams(query));
  const labels = filterLabels(filters);
  return { query: alertQuery(filters), labels, label: labels.length > 0 ? labels.join(", ") : t("alerts.everything") };
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
