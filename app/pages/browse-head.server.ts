import type { MetaDescriptor } from "react-router";
import { findCity, findUniversity } from "~/directory/universities";
import { t } from "~/i18n";
import { breadcrumbJsonLd, jsonLdMeta, pageMeta } from "~/lib/seo";
import { type BrowseFilters, filtersToSearchParams } from "~/schemas/browse-filters";
import { cityLabel, universityLabel } from "./directory-labels.server";
import "virtual:catalogue/browse-server";

/**
 * What the browse page says about itself: its heading, how many it found, and its head
 * (title, description, canonical URL, breadcrumbs) for search engines (app/pages/browse-page.server.ts).
 */

export type Site = { siteName: string; siteUrl: string };

/** The page's subject for headings, titles and breadcrumbs: university, then city, then location. */
export function pageHeading(filters: BrowseFilters): string {
  if (filters.location && filters.university) {
    return t("browseServer.heading.locationUniversity", {
      location: filters.location,
      university: universityLabel(filters.university),
    });
  }
  if (filters.university)
    return t("browseServer.heading.university", { university: universityLabel(filters.university) });
  if (filters.city) return t("browseServer.heading.city", { city: cityLabel(filters.city) });
  if (filters.location) return t("browseServer.heading.location", { location: filters.location });
  return t("browseServer.heading.all");
}

/** The match count, or its bound when counting stopped early (ADR 011). */
type Found = { total: number; totalIsExact: boolean };

const wholeNumber = new Intl.NumberFormat("en-US");

function pageDescription(filters: BrowseFilters, { total, totalIsExact }: Found): string {
  const key = totalIsExact ? "browseServer.meta.description" : "browseServer.meta.descriptionMoreThan";
  const count = totalIsExact ? total : wholeNumber.format(total);
  if (filters.university) return t(`${key}.university`, { count, university: universityLabel(filters.university) });
  const area = filters.city ? cityLabel(filters.city) : filters.location;
  if (area) return t(`${key}.area`, { count, area });
  return t(`${key}.all`, { count });
}

export function foundText({ total, totalIsExact }: Found): string {
  return totalIsExact
    ? t("browseServer.found", { count: total })
    : t("browseServer.foundMoreThan", { count: wholeNumber.format(total) });
}

export function pageOfText(page: number, totalPages: number, { total, totalIsExact }: Found): string {
  return totalIsExact
    ? t("browseServer.pageOf", { page, totalPages })
    : t("browseServer.pageOfFirst", { page, totalPages, count: wholeNumber.format(total) });
}

function pageSuffix(page: number): string {
  return page > 1 ? `?page=${page}` : "";
}

/** One address per result set: the short path forms when a single place is the only filter. */
function canonicalPath(filters: BrowseFilters, page: number): string {
  const { sort: _sort, ...rest } = filters;
  const keys = Object.entries(rest)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k)
    .sort()
    .join(",");
  const university = filters.university ? findUniversity(filters.university) : undefined;
  if (keys === "university" && university) return `/university/${university.id}${pageSuffix(page)}`;
  if (keys === "city" && filters.city && findCity(filters.city)) return `/city/${filters.city}${pageSuffix(page)}`;
  if (keys === "location" && filters.location)
    return `/search/${encodeURIComponent(filters.location)}${pageSuffix(page)}`;
  if (keys === "location,university" && filters.location && university) {
    return `/search/${encodeURIComponent(filters.location)}/${university.id}${pageSuffix(page)}`;
  }
  const query = filtersToSearchParams(rest, page).toString();
  return query ? `/browse?${query}` : "/browse";
}

function breadcrumbs(filters: BrowseFilters): { name: string; path: string }[] {
  const crumbs = [
    { name: t("browseServer.breadcrumb.home"), path: "/" },
    { name: t("browseServer.breadcrumb.browse"), path: "/browse" },
  ];
  const university = filters.university ? findUniversity(filters.university) : undefined;
  const city = filters.city ? findCity(filters.city) : undefined;
  if (university) crumbs.push({ name: universityLabel(university.name), path: `/university/${university.id}` });
  else if (city) crumbs.push({ name: cityLabel(city.code), path: `/city/${city.code}` });
  else if (filters.location)
    crumbs.push({ name: filters.location, path: `/search/${encodeURIComponent(filters.location)}` });
  return crumbs;
}

export function browseMeta(
  filters: BrowseFilters,
  page: number,
  found: Found,
  totalPages: number,
  site: Site,
): MetaDescriptor[] {
  const { total } = found;
  const subject =
    filters.university || filters.city || filters.location ? pageHeading(filters) : t("browseServer.meta.titleAll");
  return [
    ...pageMeta({
      title: `${subject} | ${site.siteName}`,
      description: pageDescription(filters, found),
      siteName: site.siteName,
      siteUrl: site.siteUrl,
      path: canonicalPath(filters, page),
      // Empty pages and free-text searches add nothing for search engines.
      noindex: total === 0 || page > totalPages || Boolean(filters.search),
    }),
    jsonLdMeta(breadcrumbJsonLd(site.siteUrl, breadcrumbs(filters))),
  ];
}
