import { UNIVERSITIES } from "../../app/directory/universities.ts";
import type { Random } from "../../app/seed/random.ts";

/** Public listings counted per combination of the values browse filters on. */
export type ListingGroup = {
  university: string;
  faculty: string;
  city: string;
  propertyType: string;
  gender: string;
  price: number;
  count: number;
};

export type ListingRef = { id: number; slug: string };

/** What the URL mixes are made from: the seeded data and the app's own filter values. */
export type UrlCatalogue = {
  /** Listings in random order; each becomes at most one URL, so no two mixes share one. */
  listings: readonly ListingRef[];
  groups: readonly ListingGroup[];
  /** Neighbourhoods listings are in, with the university they are near. */
  places: readonly { name: string; university: string }[];
  /** Words people search listings with. */
  words: readonly string[];
  browsePageSize: number;
  apiLimits: readonly number[];
  /** Price steps of the filter panel (LKR). */
  prices: readonly number[];
  sorts: readonly string[];
};

/** The site's fixed pages, most visited first: the head of the hot mix. */
export const FIXED_PAGES = [
  "/",
  "/browse",
  "/sitemap.xml",
  "/api/listings",
  "/about",
  "/robots.txt",
  "/api/universities",
  "/contact",
  "/privacy",
  "/terms",
] as const;

export type Filters = {
  search?: string;
  university?: string;
  faculty?: string;
  city?: string;
  minPrice?: number;
  maxPrice?: number;
  propertyType?: string;
  gender?: string;
  sort?: string;
};

// The order of app/schemas/browse-filters.ts filtersToSearchParams, as the app's own links have it.
const PARAM_ORDER = [
  "search",
  "university",
  "faculty",
  "city",
  "minPrice",
  "maxPrice",
  "propertyType",
  "gender",
  "sort",
] as const;

function withQuery(path: string, filters: Filters, extra: Record<string, number | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const key of PARAM_ORDER) if (filters[key] !== undefined) params.set(key, String(filters[key]));
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) params.set(key, String(value));
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/** How many listings `filters` finds, by the app's rules (a gender filter also takes listings for 'any'); text search aside. */
export function countMatching(groups: readonly ListingGroup[], filters: Filters): number {
  let total = 0;
  for (const g of groups) {
    if (filters.university !== undefined && g.university !== filters.university) continue;
    if (filters.faculty !== undefined && g.faculty !== filters.faculty) continue;
    if (filters.city !== undefined && g.city !== filters.city) continue;
    if (filters.propertyType !== undefined && g.propertyType !== filters.propertyType) continue;
    if (filters.gender !== undefined && g.gender !== filters.gender && g.gender !== "any") continue;
    if (filters.minPrice !== undefined && g.price < filters.minPrice) continue;
    if (filters.maxPrice !== undefined && g.price > filters.maxPrice) continue;
    total += g.count;
  }
  return total;
}

/**
 * A page of `total` results: the first half the time, otherwise log-uniform
 * up to the last page, so deep pages exist but are ever rarer.
 */
export function pickPage(random: Random, total: number, perPage: number): number | undefined {
  const last = Math.max(1, Math.ceil(total / perPage));
  const page = random.chance(0.5) ? 1 : Math.min(last, Math.floor(Math.exp(random.next() * Math.log(last + 1))));
  // Page 1 is the address without a page, as the app links it.
  return page > 1 ? page : undefined;
}

function universityId(name: string): string {
  return UNIVERSITIES.find((u) => u.name === name)?.id ?? name;
}

/**
 * An endless source of public GET URLs of every kind a visitor or crawler
 * asks for, drawn from the seeded data so each answers 200: listing pages,
 * browse with filters, sorts and pages, free-text search, /search/{place},
 * /university/{id}, /city/{code} and the JSON API. Filter combinations start
 * from a real group of listings, so they always find something and their
 * pages exist.
 */
export function createUrlGenerator(
  catalogue: UrlCatalogue,
  random: Random,
  /** Start the listings again from the first once used up (the soak), instead of drawing other kinds only. */
  options: { cycleListings?: boolean } = {},
): () => string {
  if (catalogue.groups.length === 0) throw new Error("no public listings to build URLs from");
  let nextListing = 0;
  const takeListing = () => {
    if (options.cycleListings && nextListing === catalogue.listings.length) nextListing = 0;
    return nextListing < catalogue.listings.length ? catalogue.listings[nextListing++] : null;
  };
  // 'Nearest first' measures from the chosen university: without one it is no order the app accepts.
  const pickSort = (filters: Filters) =>
    random.pick(catalogue.sorts.filter((sort) => sort !== "nearest" || filters.university !== undefined));
  const counts = new Map<string, number>();
  const count = (filters: Filters) => {
    const key = JSON.stringify(filters);
    let n = counts.get(key);
    if (n === undefined) {
      n = countMatching(catalogue.groups, filters);
      counts.set(key, n);
    }
    return n;
  };
  const stepAtOrAbove = (price: number) => catalogue.prices.find((p) => p >= price);
  const stepAtOrBelow = (price: number) => catalogue.prices.findLast((p) => p <= price);

  const randomFilters = (): Filters => {
    const anchor = random.pick(catalogue.groups);
    const filters: Filters = {};
    if (random.chance(0.5)) {
      filters.university = anchor.university;
      if (random.chance(0.25)) filters.faculty = anchor.faculty;
    } else if (random.chance(0.3)) filters.city = anchor.city;
    if (random.chance(0.25)) filters.maxPrice = stepAtOrAbove(anchor.price);
    if (random.chance(0.1)) filters.minPrice = stepAtOrBelow(anchor.price);
    if (random.chance(0.4)) filters.propertyType = anchor.propertyType;
    if (random.chance(0.3)) filters.gender = anchor.gender === "any" ? random.pick(["male", "female"]) : anchor.gender;
    if (random.chance(0.25)) filters.sort = pickSort(filters);
    return filters;
  };

  const searchText = () => {
    const word = random.pick(catalogue.words);
    if (random.chance(0.5)) return word;
    // People type a second word, or the start of a place name ("room morat").
    const place = random.pick(catalogue.places).name;
    return random.chance(0.5)
      ? `${word} ${random.pick(catalogue.words)}`
      : `${word} ${place.slice(0, random.int(4, place.length))}`;
  };

  const kinds: { weight: number; make: () => string | null }[] = [
    {
      weight: 40,
      make: () => {
        const listing = takeListing();
        return listing && `/listing/${listing.slug}`;
      },
    },
    {
      weight: 5,
      make: () => {
        const listing = takeListing();
        return listing && `/api/listings/${listing.id}`;
      },
    },
    {
      weight: 20,
      make: () => {
        const filters = randomFilters();
        return withQuery("/browse", filters, { page: pickPage(random, count(filters), catalogue.browsePageSize) });
      },
    },
    {
      weight: 10,
      make: () => {
        const filters: Filters = { search: searchText() };
        if (random.chance(0.25)) filters.university = random.pick(catalogue.groups).university;
        if (random.chance(0.2)) filters.sort = pickSort(filters);
        return withQuery("/browse", filters, { page: random.chance(0.75) ? undefined : 2 });
      },
    },
    {
      weight: 6,
      make: () => {
        const place = random.pick(catalogue.places);
        const path = random.chance(0.7)
          ? `/search/${encodeURIComponent(place.name)}`
          : `/search/${encodeURIComponent(place.name)}/${universityId(place.university)}`;
        return withQuery(path, {}, { page: random.chance(0.7) ? undefined : random.int(2, 3) });
      },
    },
    {
      weight: 6,
      make: () => {
        const { university } = random.pick(catalogue.groups);
        const page = pickPage(random, count({ university }), catalogue.browsePageSize);
        return withQuery(`/university/${universityId(university)}`, {}, { page });
      },
    },
    {
      weight: 3,
      make: () => {
        const { city } = random.pick(catalogue.groups);
        return withQuery(`/city/${city}`, {}, { page: pickPage(random, count({ city }), catalogue.browsePageSize) });
      },
    },
    {
      weight: 10,
      make: () => {
        const filters = randomFilters();
        const limit = random.pick(catalogue.apiLimits);
        return withQuery("/api/listings", filters, { limit, page: pickPage(random, count(filters), limit) });
      },
    },
  ];
  const totalWeight = kinds.reduce((sum, kind) => sum + kind.weight, 0);

  return () => {
    // Once the listings are used up (unless they cycle) their kinds give nothing and another kind is drawn.
    for (;;) {
      let roll = random.next() * totalWeight;
      const kind =
        kinds.find((k) => {
          roll -= k.weight;
          return roll < 0;
        }) ?? kinds[kinds.length - 1];
      const url = kind.make();
      if (url) return url;
    }
  };
}

/** Up to `count` URLs from `next` not yet in `seen` (which gains them); gives up after many repeats in a row. */
export function takeDistinct(next: () => string, count: number, seen: Set<string>): string[] {
  const urls: string[] = [];
  let repeats = 0;
  while (urls.length < count && repeats < 10_000) {
    const url = next();
    if (seen.has(url)) {
      repeats++;
      continue;
    }
    repeats = 0;
    seen.add(url);
    urls.push(url);
  }
  return urls;
}

/**
 * The hot set (the fixed pages first, then `hot` minus those in random order:
 * the order is the popularity rank) and a cold pool of up to `cold` further
 * URLs that share none with it.
 */
export function buildUrlSets(catalogue: UrlCatalogue, random: Random, sizes: { hot: number; cold: number }) {
  const seen = new Set<string>(FIXED_PAGES);
  const next = createUrlGenerator(catalogue, random);
  const hot = [...FIXED_PAGES, ...takeDistinct(next, sizes.hot - FIXED_PAGES.length, seen)];
  const cold = takeDistinct(next, sizes.cold, seen);
  return { hot, cold };
}
