import type { t as translate } from "~/i18n";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useLocation, useNavigate, useNavigation } from "react-router";
import { EmptyState } from "~/components/browse/empty-state";
import { type FilterChip, FilterChips } from "~/components/browse/filter-chips";
import { activeFilterCount, type DraftField, draftFromFilters, draftToSearchParams, type FilterDraft } from "~/components/browse/filter-draft";
import { FilterPanel } from "~/components/browse/filter-panel";
import { PaginationNav } from "~/components/browse/pagination";
import { SearchBox } from "~/components/browse/search-box";
import { SortSelect } from "~/components/browse/sort-select";
import { ListingCard } from "~/components/listing-card";
import { Banner } from "~/components/ui/banner";
import { cityName, findCity, findFaculty, findUniversity } from "~/directory/universities";
import { t, useTranslation } from "~/i18n";
import { formatLkr } from "~/lib/format";
import { breadcrumbJsonLd, jsonLdMeta, pageMeta } from "~/lib/seo";
import { searchListings } from "~/models/listing.server";
import { BROWSE_PAGE_SIZE, type BrowseFilters, filtersToSearchParams, parseBrowseFilters, type PathFilters } from "~/schemas/browse-filters";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/browse";
import "virtual:catalogue/browse";

type PathKey = keyof PathFilters;
const PATH_KEYS: PathKey[] = ["university", "location", "city"];
const DEBOUNCE_MS = 400;

/** The page's subject for headings, titles and breadcrumbs: university, then city, then location. */
function pageHeading(filters: BrowseFilters): string {
  if (filters.location && filters.university) {
    return t("browse.heading.locationUniversity", { location: filters.location, university: filters.university });
  }
  if (filters.university) return t("browse.heading.university", { university: filters.university });
  if (filters.city) return t("browse.heading.city", { city: cityName(filters.city) });
  if (filters.location) return t("browse.heading.location", { location: filters.location });
  return t("browse.heading.all");
}

function pageDescription(filters: BrowseFilters, count: number): string {
  if (filters.university) return t("browse.meta.description.university", { count, university: filters.university });
  const area = filters.city ? cityName(filters.city) : filters.location;
  if (area) return t("browse.meta.description.area", { count, area });
  return t("browse.meta.description.all", { count });
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
  if (keys === "location" && filters.location) return `/search/${encodeURIComponent(filters.location)}${pageSuffix(page)}`;
  if (keys === "location,university" && filters.location && university) {
    return `/search/${encodeURIComponent(filters.location)}/${university.id}${pageSuffix(page)}`;
  }
  const query = filtersToSearchParams(rest, page).toString();
  return query ? `/browse?${query}` : "/browse";
}

function breadcrumbs(filters: BrowseFilters): { name: string; path: string }[] {
  const crumbs = [
    { name: t("browse.breadcrumb.home"), path: "/" },
    { name: t("browse.breadcrumb.browse"), path: "/browse" },
  ];
  const university = filters.university ? findUniversity(filters.university) : undefined;
  const city = filters.city ? findCity(filters.city) : undefined;
  if (university) crumbs.push({ name: university.name, path: `/university/${university.id}` });
  else if (city) crumbs.push({ name: city.name, path: `/city/${city.code}` });
  else if (filters.location) crumbs.push({ name: filters.location, path: `/search/${encodeURIComponent(filters.location)}` });
  return crumbs;
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [];
  const { filters, pagination, page, siteName, siteUrl } = loaderData;
  const subject = filters.university || filters.city || filters.location ? pageHeading(filters) : t("browse.meta.titleAll");
  return [
    ...pageMeta({
      title: `${subject} | ${siteName}`,
      description: pageDescription(filters, pagination.total),
      siteName,
      siteUrl,
      path: canonicalPath(filters, page),
      // Empty pages and free-text searches add nothing for search engines.
      noindex: pagination.total === 0 || page > pagination.totalPages || Boolean(filters.search),
    }),
    jsonLdMeta(breadcrumbJsonLd(siteUrl, breadcrumbs(filters))),
  ];
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, env } = context.get(requestContext);
  const url = new URL(request.url);
  const path = params as PathFilters;
  const { filters, page, errors } = parseBrowseFilters(url.searchParams, path);

  // A faculty left over from a previously chosen university (no-JS form) would match nothing.
  const university = filters.university ? findUniversity(filters.university) : undefined;
  if (university && filters.faculty && !findFaculty(university, filters.faculty)) delete filters.faculty;

  const { ads, pagination } = await searchListings(db, filters, { page, limit: BROWSE_PAGE_SIZE });

  // Which filters come from the path (the query string wins when it has the same one).
  const fromPath: Partial<Record<PathKey, boolean>> = {};
  for (const key of PATH_KEYS) fromPath[key] = Boolean(path[key]?.trim() && !url.searchParams.get(key)?.trim());

  return {
    siteName: env.SITE_NAME,
    siteUrl: env.siteUrl,
    filters,
    page,
    ads,
    pagination,
    fromPath,
    invalidParams: [...new Set(errors.map((e) => e.param))],
  };
}

function withoutFilters(filters: BrowseFilters, keys: (keyof BrowseFilters)[]): BrowseFilters {
  const next = { ...filters };
  for (const key of keys) delete next[key];
  return next;
}

function browseHref(filters: BrowseFilters): string {
  const query = filtersToSearchParams(filters).toString();
  return query ? `/browse?${query}` : "/browse";
}

function buildChips(filters: BrowseFilters, tr: typeof translate): FilterChip[] {
  const chip = (key: keyof BrowseFilters, label: string, alsoRemove: (keyof BrowseFilters)[] = []): FilterChip => ({
    key,
    label,
    href: browseHref(withoutFilters(filters, [key, ...alsoRemove])),
  });
  const chips: FilterChip[] = [];
  if (filters.search) chips.push(chip("search", tr("browse.chips.search", { value: filters.search })));
  if (filters.university) chips.push(chip("university", filters.university, ["faculty"]));
  if (filters.faculty) chips.push(chip("faculty", filters.faculty));
  if (filters.location) chips.push(chip("location", tr("browse.chips.location", { value: filters.location })));
  if (filters.city) chips.push(chip("city", tr("browse.chips.city", { value: cityName(filters.city) })));
  if (filters.minPrice !== undefined) chips.push(chip("minPrice", tr("browse.chips.minPrice", { value: formatLkr(filters.minPrice) })));
  if (filters.maxPrice !== undefined) chips.push(chip("maxPrice", tr("browse.chips.maxPrice", { value: formatLkr(filters.maxPrice) })));
  if (filters.propertyType) chips.push(chip("propertyType", tr(`browse.propertyTypes.${filters.propertyType}`)));
  if (filters.gender) chips.push(chip("gender", tr(`browse.genders.${filters.gender}`)));
  return chips;
}

export default function Browse({ loaderData }: Route.ComponentProps) {
  const { filters, page, ads, pagination, fromPath, invalidParams } = loaderData;
  const { t: tr } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const navigation = useNavigation();

  const [draft, setDraft] = useState<FilterDraft>(() => draftFromFilters(filters));
  const draftRef = useRef(draft);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // The address this page navigated to itself: arriving there must not overwrite what the user is typing.
  const selfNavigated = useRef<string | null>(null);
  const currentUrl = location.pathname + location.search;

  useEffect(() => {
    if (selfNavigated.current !== currentUrl) {
      const fresh = draftFromFilters(filters);
      draftRef.current = fresh;
      setDraft(fresh);
    }
    selfNavigated.current = null;
    // Only an address change resets the form (`filters` changes with it).
  }, [currentUrl]);

  useEffect(() => () => clearTimeout(timer.current), []);

  /** Every filter change replaces the history entry and goes back to page 1. */
  function apply(next: FilterDraft) {
    clearTimeout(timer.current);
    // Stay on /university/x (and the like) while its path value is unchanged; otherwise /browse carries everything.
    const pathKept = PATH_KEYS.every((key) => !fromPath[key] || next[key] === (filters[key] ?? ""));
    const query = draftToSearchParams(next, pathKept ? fromPath : {}).toString();
    const pathname = pathKept ? location.pathname : "/browse";
    const target = query ? `${pathname}?${query}` : pathname;
    if (target === currentUrl) return;
    selfNavigated.current = target;
    void navigate(target, { replace: true, preventScrollReset: true });
  }

  function onFieldChange(field: DraftField, value: string, mode: "now" | "debounce") {
    const next = { ...draftRef.current, [field]: value };
    if (field === "university") next.faculty = "";
    draftRef.current = next;
    setDraft(next);
    clearTimeout(timer.current);
    if (mode === "now") apply(next);
    else timer.current = setTimeout(() => apply(draftRef.current), DEBOUNCE_MS);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    apply(draftRef.current);
  }

  const pageQueryFilters = withoutFilters(
    filters,
    PATH_KEYS.filter((key) => fromPath[key]),
  );
  const hrefForPage = (target: number) => {
    const query = filtersToSearchParams(pageQueryFilters, target).toString();
    return query ? `${location.pathname}?${query}` : location.pathname;
  };
  const outOfRange = pagination.total > 0 && page > pagination.totalPages;
  const busy = navigation.state === "loading";
  const invalidLabels = invalidParams.map((param) => tr(`browse.notice.params.${param}`, { defaultValue: param }));

  return (
    <div className="mx-auto max-w-6xl px-4 py-6 lg:py-8">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{pageHeading(filters)}</h1>

      <div className="mt-4">
        <SearchBox value={draft.search} onChange={(value) => onFieldChange("search", value, "debounce")} />
      </div>

      <div className="mt-6 lg:grid lg:grid-cols-[17rem_1fr] lg:gap-8">
        <aside className="mb-6 lg:mb-0" aria-label={tr("browse.filters.heading")}>
          <FilterPanel draft={draft} onFieldChange={onFieldChange} onSubmit={onSubmit} activeCount={activeFilterCount(filters)} />
        </aside>

        <section aria-labelledby="browse-results-count" aria-busy={busy} className="min-w-0">
          {invalidLabels.length > 0 ? (
            <Banner variant="warning" className="mb-4" data-testid="browse-notice" title={tr("browse.notice.title")}>
              {tr("browse.notice.detail", { params: invalidLabels.join(", ") })}
            </Banner>
          ) : null}

          <FilterChips chips={buildChips(filters, tr)} clearHref="/browse" />

          <div className="mt-4 flex flex-wrap items-end justify-between gap-3">
            <div role="status">
              <h2 id="browse-results-count" className="text-xl font-bold">
                {tr("browse.found", { count: pagination.total })}
              </h2>
              {pagination.total > 0 && !outOfRange ? (
                <p className="text-sm text-slate-600">{tr("browse.pageOf", { page, totalPages: pagination.totalPages })}</p>
              ) : null}
            </div>
            <SortSelect value={draft.sort} hasSearch={draft.search.trim() !== ""} onChange={(value) => onFieldChange("sort", value, "now")} />
          </div>

          <div className={`mt-4 transition-opacity ${busy ? "opacity-60" : ""}`}>
            {ads.length > 0 ? (
              <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
                {ads.map((listing, index) => (
                  <li key={listing.id}>
                    <ListingCard listing={listing} eager={index < 2} />
                  </li>
                ))}
              </ul>
            ) : (
              <EmptyState firstPageHref={outOfRange ? hrefForPage(1) : undefined} />
            )}
          </div>

          <PaginationNav page={page} totalPages={pagination.totalPages} hrefFor={hrefForPage} />
        </section>
      </div>
    </div>
  );
}
