import type { MetaDescriptor } from "react-router";
import type { CountMemo } from "~/db/count-memo.server";
import type { DB } from "~/db/db.server";
import { DEFAULT_FACULTY, findFaculty, findUniversity } from "~/directory/universities";
import { t } from "~/i18n";
import { formatLkr, formatShortDate } from "~/lib/format";
import { pageWindow } from "~/lib/pagination";
import { shownChecks } from "~/models/listing-checks.server";
import { searchListings } from "~/models/listing-search.server";
import {
  BROWSE_PAGE_SIZE,
  type BrowseFilters,
  CONFIRMED_OPTIONS,
  type DistanceOrigin,
  distanceOrigin,
  filtersToSearchParams,
  GENDERS,
  MAX_MOVE_IN_OPTIONS,
  type PathFilters,
  PHONE_CONFIRMED,
  PROPERTY_TYPES,
  parseBrowseFilters,
  WITHIN_OPTIONS,
} from "~/schemas/browse-filters";
import type { Choice, FilterChip, FilterFormView, PageNav, SelectView } from "~/schemas/browse-view";
import { activeFilterCount, type DraftField, draftFromFilters, type FilterDraft } from "~/schemas/filter-draft";
import { FACT_FILTER_PARAMS, FACT_FILTER_VALUES, FREE_BEDS_OPTIONS } from "~/schemas/listing-facts";
import type { ListingCardView, ListingSummary } from "~/schemas/listing-view";
import { browseMeta, foundText, pageHeading, pageOfText, type Site } from "./browse-head.server";
import { cardBadges } from "./checks.server";
import { photosForSaver } from "./data-saver.server";
import { cityLabel, facultyLabel, universityChoices, universityLabel } from "./directory-labels.server";
import { distanceLine } from "./distance.server";
import { cardFacts } from "./facts.server";
import { moveInLine } from "./move-in.server";
import "virtual:catalogue/browse";
import "virtual:catalogue/browse-server";

export type PathKey = keyof PathFilters;
const PATH_KEYS: PathKey[] = ["university", "location", "city"];

/**
 * Everything the browse page shows, worked out on the server: the browser
 * gets plain values (texts, links, option lists) and no filter parsing,
 * directory or SEO code, which keeps its JavaScript within budget.
 */
export type BrowsePage = {
  meta: MetaDescriptor[];
  heading: string;
  /** '12 boarding places found' and 'Page 1 of 2' (null when there is no such page). */
  found: string;
  pageOf: string | null;
  /** The filter form's values. */
  form: FilterDraft;
  /** Which filters come from the path (/university/x, ...), so changes can stay on it. */
  fromPath: Partial<Record<PathKey, boolean>>;
  /** The filter form's texts, choices and values. */
  filterForm: FilterFormView;
  /** The order select beside the results. */
  sort: SelectView;
  /** '2 active' on the filter drawer's summary, or null. */
  activeLabel: string | null;
  chips: FilterChip[];
  /** Which values of the link were ignored, or null. */
  notice: string | null;
  ads: ListingCardView[];
  /** Pagination links; null hides the pagination. */
  pages: PageNav | null;
  /** Past the last page: a way back to the first. */
  firstPageHref: string | null;
  /** 'Email me new places like these': the alert page for this search (ADR 058). */
  alert: { href: string; label: string };
};

function withoutFilters(filters: BrowseFilters, keys: (keyof BrowseFilters)[]): BrowseFilters {
  const next = { ...filters };
  for (const key of keys) delete next[key];
  return next;
}

function browseHref(filters: BrowseFilters): string {
  const query = filtersToSearchParams(filters).toString();
  return query ? `/browse?${query}` : "/browse";
}

/** One removable chip per active filter, each a link to the results without it. */
function buildChips(filters: BrowseFilters): FilterChip[] {
  const chip = (key: keyof BrowseFilters, label: string, alsoRemove: (keyof BrowseFilters)[] = []): FilterChip => ({
    key,
    label,
    href: browseHref(withoutFilters(filters, [key, ...alsoRemove])),
  });
  const chips: FilterChip[] = [];
  if (filters.search) chips.push(chip("search", t("browseServer.chips.search", { value: filters.search })));
  // Distance needs the university: without it 'Within' and 'Nearest first' go too.
  const measured: (keyof BrowseFilters)[] = filters.sort === "nearest" ? ["within", "sort"] : ["within"];
  if (filters.university) chips.push(chip("university", universityLabel(filters.university), ["faculty", ...measured]));
  if (filters.faculty) chips.push(chip("faculty", facultyLabel(filters.faculty)));
  if (filters.location) chips.push(chip("location", t("browseServer.chips.location", { value: filters.location })));
  if (filters.city) chips.push(chip("city", t("browseServer.chips.city", { value: cityLabel(filters.city) })));
  if (filters.minPrice !== undefined)
    chips.push(chip("minPrice", t("browseServer.chips.minPrice", { value: formatLkr(filters.minPrice) })));
  if (filters.maxPrice !== undefined)
    chips.push(chip("maxPrice", t("browseServer.chips.maxPrice", { value: formatLkr(filters.maxPrice) })));
  if (filters.maxMoveIn !== undefined)
    chips.push(chip("maxMoveIn", t("browseServer.chips.maxMoveIn", { value: formatLkr(filters.maxMoveIn) })));
  if (filters.within !== undefined)
    chips.push(chip("within", t("browseServer.chips.within", { value: filters.within })));
  for (const param of FACT_FILTER_PARAMS)
    if (filters[param]) chips.push(chip(param, t(`browse.filters.facts.${param}`)));
  if (filters.freeBeds !== undefined)
    chips.push(chip("freeBeds", t("browseServer.chips.freeBeds", { count: filters.freeBeds })));
  if (filters.confirmed !== undefined)
    chips.push(chip("confirmed", t("browseServer.chips.confirmed", { days: filters.confirmed })));
  if (filters.phone) chips.push(chip("phone", t("browseServer.filters.phoneConfirmed")));
  if (filters.propertyType) chips.push(chip("propertyType", t(`browse.propertyTypes.${filters.propertyType}`)));
  if (filters.gender) chips.push(chip("gender", t(`browse.genders.${filters.gender}`)));
  return chips;
}

/** The active filters in words, as their chips say them ('University of Moratuwa', 'Up to LKR 20,000'). */
export function filterLabels(filters: BrowseFilters): string[] {
  return buildChips(filters).map((chip) => chip.label);
}

/** What an alert for these filters watches: the query string without order or page (app/routes/alerts.new.tsx). */
export function alertQuery(filters: BrowseFilters): string {
  return filtersToSearchParams({ ...filters, sort: undefined }).toString();
}

/** 'Max move-in cost' choices, amounts written here ('LKR 40,000'); a value from a link stays choosable. */
function moveInChoices(chosen: number | undefined): Choice[] {
  const amounts: number[] = [...MAX_MOVE_IN_OPTIONS];
  if (chosen !== undefined && !amounts.includes(chosen)) amounts.push(chosen);
  return amounts.sort((a, b) => a - b).map((amount) => ({ value: String(amount), label: formatLkr(amount) }));
}

/** The 'Within' choices, '1 km' to '10 km'. */
function withinChoices(): Choice[] {
  return WITHIN_OPTIONS.map((km) => ({ value: String(km), label: t("browseServer.withinChoice", { km }) }));
}

type FormLists = {
  universities: Choice[];
  /** The chosen university's faculties; null hides the faculty choice. */
  faculties: Choice[] | null;
  moveIn: Choice[];
  /** A university is chosen, so there is a distance to filter by. */
  measured: boolean;
  /** Phone confirmation is on: 'Phone confirmed only' is offered. */
  phonesEnabled: boolean;
};

/** The filter form, written out here so the browser gets no option lists, filter constants or their labels' code. */
function filterFormView(
  form: FilterDraft,
  { universities, faculties, moveIn, measured, phonesEnabled }: FormLists,
): FilterFormView {
  // Each select starts with the empty choice: no filter.
  const select = (
    name: DraftField,
    label: string,
    anyLabel: string,
    choices: Choice[],
    id = `filter-${name}`,
  ): SelectView => ({
    id,
    name,
    label,
    value: form[name],
    choices: [{ value: "", label: anyLabel }, ...choices],
    key: name,
  });
  const upper = [
    select("university", t("browse.filters.university"), t("browse.filters.allUniversities"), universities),
  ];
  // Keyed by university: another university's list starts from 'All Faculties'.
  if (faculties)
    upper.push({
      ...select("faculty", t("browse.filters.faculty"), t("browse.filters.allFaculties"), faculties),
      key: `faculty:${form.university}`,
    });
  if (measured)
    upper.push(select("within", t("browse.filters.within"), t("browse.filters.anyWithin"), withinChoices()));
  const types = PROPERTY_TYPES.map((type) => ({ value: type, label: t(`browse.propertyTypes.${type}`) }));
  upper.push(
    select("propertyType", t("browse.filters.propertyType"), t("browse.filters.allTypes"), types, "filter-type"),
  );

  // 'any' is the empty choice.
  const genders = GENDERS.filter((g) => g !== "any").map((g) => ({ value: g, label: t(`browse.genders.${g}`) }));
  const freeBeds = FREE_BEDS_OPTIONS.map((count) => ({
    value: String(count),
    label: t("browse.filters.facts.freeBedsOption", { count }),
  }));

  return {
    toggle: t("browse.filters.toggle"),
    heading: t("browse.filters.heading"),
    hidden: (["location", "city"] as const).filter((name) => form[name]).map((name) => ({ name, value: form[name] })),
    upper,
    prices: {
      legend: t("browse.filters.priceRange"),
      placeholder: t("browse.filters.pricePlaceholder"),
      inputs: (["minPrice", "maxPrice"] as const).map((name) => ({
        name,
        label: t(`browse.filters.${name}`),
        value: form[name],
      })),
    },
    lower: [
      select("maxMoveIn", t("browse.filters.maxMoveIn"), t("browse.filters.anyMoveIn"), moveIn),
      select("gender", t("browse.filters.gender"), t("browse.filters.anyGender"), genders),
    ],
    facts: {
      legend: t("browse.filters.facts.mustHave"),
      boxes: [
        ...FACT_FILTER_PARAMS.map((param) => ({
          name: param,
          label: t(`browse.filters.facts.${param}`),
          value: FACT_FILTER_VALUES[param],
          checked: form[param] !== "",
        })),
        ...CONFIRMED_OPTIONS.map((days) => ({
          name: "confirmed",
          label: t("browse.filters.facts.confirmed"),
          value: String(days),
          checked: form.confirmed === String(days),
        })),
        ...(phonesEnabled
          ? [
              {
                name: "phone",
                label: t("browseServer.filters.phoneConfirmed"),
                value: PHONE_CONFIRMED,
                checked: form.phone === PHONE_CONFIRMED,
              },
            ]
          : []),
      ],
    },
    freeBeds: select("freeBeds", t("browse.filters.facts.freeBeds"), t("browse.filters.facts.anyBeds"), freeBeds),
    apply: t("browse.filters.apply"),
  };
}

/** The order select: 'Best match' is the default while there is search text; 'Nearest first' needs a university. */
function sortView(form: FilterDraft, measured: boolean): SelectView {
  const hasSearch = form.search !== "";
  const choices: Choice[] = [{ value: "", label: t(hasSearch ? "browse.sort.relevance" : "browse.sort.newest") }];
  if (hasSearch) choices.push({ value: "newest", label: t("browse.sort.newest") });
  choices.push(
    { value: "price_asc", label: t("browse.sort.price_asc") },
    { value: "price_desc", label: t("browse.sort.price_desc") },
  );
  if (measured) choices.push({ value: "nearest", label: t("browse.sort.nearest") });
  return { id: "browse-sort", name: "sort", label: t("browse.sort.label"), value: form.sort, choices, key: "sort" };
}

/** A card's values and texts, written here; the rest of the listing (description, phone) stays on the server. */
function toListingCard(
  listing: ListingSummary,
  origin: DistanceOrigin | null,
  phonesEnabled: boolean,
  dataSaver: boolean,
): ListingCardView {
  const photoCount = listing.photos.length;
  const [photo] = photosForSaver(listing.photos.slice(0, 1), dataSaver);
  return {
    id: listing.id,
    slug: listing.slug,
    title: listing.title,
    university: listing.university,
    universityLabel: universityLabel(listing.university),
    photo: photo ?? null,
    photosBadge: photoCount > 1 ? t("browseServer.card.photos", { count: photoCount }) : null,
    priceLine: t("browseServer.card.pricePerMonth", { price: formatLkr(listing.price) }),
    keymoneyLine: listing.keymoneyFee
      ? t("browseServer.card.keyMoney", { amount: formatLkr(listing.keymoneyFee) })
      : null,
    moveInLine: moveInLine(listing),
    doubtLine: listing.availabilityUnconfirmed ? t("browseServer.card.unconfirmed") : null,
    distanceLine: origin ? distanceLine(listing, origin) : null,
    factChips: cardFacts(listing),
    badges: cardBadges(shownChecks(listing.checks, phonesEnabled)),
    facultyTag: listing.faculty && listing.faculty !== DEFAULT_FACULTY ? facultyLabel(listing.faculty) : null,
    typeLabel: t(`browseServer.card.propertyType.${listing.propertyType}`),
    genderLabel: t(`browseServer.card.gender.${listing.gender}`),
    postedLine: t("browseServer.card.posted", { date: formatShortDate(listing.createdAt) }),
    viewsLine: t("browseServer.card.views", { count: listing.views }),
  };
}

/**
 * First, previous, numbered pages (a window of 2 either
 * side, plus the first and the last), next, last; hidden with one page or
 * fewer unless the link pointed past the end and needs a way back.
 */
function pageNav(page: number, totalPages: number, hrefFor: (page: number) => string): PageNav | null {
  const outOfRange = page > totalPages;
  if (totalPages < 1 || (totalPages === 1 && !outOfRange)) return null;
  const previous = outOfRange ? totalPages : page - 1;
  const link = (target: number, enabled: boolean) => (enabled ? hrefFor(target) : null);
  return {
    page,
    first: link(1, page > 1),
    previous: link(previous, previous >= 1),
    next: link(page + 1, page + 1 <= totalPages),
    last: link(totalPages, page < totalPages),
    pages: pageWindow(Math.min(page, totalPages), totalPages).map((item) =>
      item.type === "page" ? { page: item.page, href: hrefFor(item.page) } : null,
    ),
  };
}

export async function loadBrowsePage(
  db: DB,
  url: URL,
  path: PathFilters,
  site: Site,
  phonesEnabled = true,
  /** Data saver (ADR 090): each card's photo on a tap, at its smallest size. */
  dataSaver = false,
  /** Remembered counts (ADR 096): absent, every page counts its matches. */
  counts?: CountMemo,
): Promise<BrowsePage> {
  const { filters, page, errors } = parseBrowseFilters(url.searchParams, path);
  // Phone confirmation off: no phone badges, and 'Phone confirmed only' is neither offered nor applied (ADR 080).
  if (!phonesEnabled) delete filters.phone;

  // A faculty left over from a previously chosen university (no-JS form) would match nothing.
  const university = filters.university ? findUniversity(filters.university) : undefined;
  if (university && filters.faculty && !findFaculty(university, filters.faculty)) delete filters.faculty;

  const { ads, pagination } = await searchListings(db, filters, { page, limit: BROWSE_PAGE_SIZE, counts });
  // Cards show the distance to the faculty the student chose (ADR 050).
  const origin = distanceOrigin(filters);

  // Which filters come from the path (the query string wins when it has the same one).
  const fromPath: Partial<Record<PathKey, boolean>> = {};
  for (const key of PATH_KEYS) fromPath[key] = Boolean(path[key]?.trim() && !url.searchParams.get(key)?.trim());

  // Values from a link that the lists lack stay choosable, so the form shows what applies.
  // The English name is the value (URLs, search); the label is in the reader's language.
  const universities = universityChoices();
  if (filters.university && !university) universities.push({ value: filters.university, label: filters.university });
  const faculties = university
    ? university.faculties.map((f) => ({ value: f.name, label: facultyLabel(f.name) }))
    : null;
  if (faculties && filters.faculty && !faculties.some((f) => f.value === filters.faculty))
    faculties.push({ value: filters.faculty, label: filters.faculty });

  const invalid = [...new Set(errors.map((e) => e.param))].map((param) => t(`browseServer.notice.params.${param}`));

  // Page links keep the query but not what the path already says. They are relative
  // ("?page=2", or "." for none) and resolve against the route's own path: the
  // request's path is not that path on client-side navigations (/browse.data).
  const pageFilters = withoutFilters(
    filters,
    PATH_KEYS.filter((key) => fromPath[key]),
  );
  const hrefFor = (target: number) => {
    const query = filtersToSearchParams(pageFilters, target).toString();
    return query ? `?${query}` : ".";
  };
  const { total, totalPages } = pagination;
  const outOfRange = total > 0 && page > totalPages;
  const activeCount = activeFilterCount(filters);
  const form = draftFromFilters(filters);
  const measured = origin !== null;

  return {
    meta: browseMeta(filters, page, pagination, totalPages, site),
    heading: pageHeading(filters),
    found: foundText(pagination),
    pageOf: total > 0 && !outOfRange ? pageOfText(page, totalPages, pagination) : null,
    form,
    fromPath,
    filterForm: filterFormView(form, {
      universities,
      faculties,
      moveIn: moveInChoices(filters.maxMoveIn),
      measured,
      phonesEnabled,
    }),
    activeLabel: activeCount > 0 ? t("browseServer.activeCount", { count: activeCount }) : null,
    sort: sortView(form, measured),
    chips: buildChips(filters),
    notice: invalid.length > 0 ? t("browseServer.notice.detail", { params: invalid.join(", ") }) : null,
    ads: ads.map((ad) => toListingCard(ad, origin, phonesEnabled, dataSaver)),
    pages: pageNav(page, totalPages, hrefFor),
    firstPageHref: outOfRange ? hrefFor(1) : null,
    alert: {
      href: `/alerts/new${alertQuery(filters) ? `?${alertQuery(filters)}` : ""}`,
      label: t("browseServer.alertLink"),
    },
  };
}
