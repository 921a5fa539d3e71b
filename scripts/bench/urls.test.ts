import { describe, expect, it } from "vitest";
import {
  API_DEFAULT_LIMIT,
  API_MAX_LIMIT,
  BROWSE_PAGE_SIZE,
  MAX_PRICE_OPTIONS,
  parseBrowseFilters,
  SORTS,
} from "../../app/schemas/browse-filters";
import { createRandom } from "../../app/seed/random.ts";
import {
  buildUrlSets,
  countMatching,
  createUrlGenerator,
  FIXED_PAGES,
  type ListingGroup,
  pickPage,
  takeDistinct,
  type UrlCatalogue,
} from "./urls.ts";

const groups: ListingGroup[] = [
  {
    university: "University of Moratuwa",
    faculty: "Main Campus",
    city: "moratuwa",
    propertyType: "single",
    gender: "male",
    price: 12_000,
    count: 400,
  },
  {
    university: "University of Moratuwa",
    faculty: "Main Campus",
    city: "moratuwa",
    propertyType: "hostel",
    gender: "any",
    price: 8_000,
    count: 300,
  },
  {
    university: "University of Colombo",
    faculty: "Faculty of Medicine Colombo",
    city: "colombo-medical",
    propertyType: "apartment",
    gender: "female",
    price: 45_000,
    count: 200,
  },
  {
    university: "University of Peradeniya",
    faculty: "Main Campus",
    city: "kandy",
    propertyType: "shared",
    gender: "female",
    price: 6_000,
    count: 100,
  },
];

function catalogue(listings = 10_000): UrlCatalogue {
  return {
    listings: Array.from({ length: listings }, (_, i) => ({ id: i + 1, slug: `room-${i + 1}` })),
    groups,
    places: Array.from({ length: 30 }, (_, i) => ({
      name: `Place ${i}`,
      university: groups[i % groups.length].university,
    })),
    words: ["room", "annex", "hostel", "UoM"],
    browsePageSize: BROWSE_PAGE_SIZE,
    apiLimits: [API_DEFAULT_LIMIT, API_MAX_LIMIT],
    prices: MAX_PRICE_OPTIONS,
    // As scripts/bench/catalogue.ts gives them: 'nearest' too, which needs a university.
    sorts: SORTS.filter((s) => s !== "relevance"),
  };
}

describe("countMatching", () => {
  it("counts as the app filters: a gender also takes listings for 'any'; prices are inclusive", () => {
    expect(countMatching(groups, {})).toBe(1_000);
    expect(countMatching(groups, { university: "University of Moratuwa" })).toBe(700);
    expect(countMatching(groups, { gender: "male" })).toBe(700);
    expect(countMatching(groups, { gender: "female", city: "kandy" })).toBe(100);
    expect(countMatching(groups, { minPrice: 8_000, maxPrice: 12_000 })).toBe(700);
    expect(countMatching(groups, { faculty: "Faculty of Medicine Colombo", propertyType: "single" })).toBe(0);
  });
});

describe("pickPage", () => {
  it("stays within the pages there are and leaves page 1 out of the address", () => {
    const random = createRandom(1);
    const pages = Array.from({ length: 2_000 }, () => pickPage(random, 95, 10));
    expect(pages.filter((p) => p === undefined).length).toBeGreaterThan(900);
    expect(pages.every((p) => p === undefined || (p >= 2 && p <= 10))).toBe(true);
    expect(new Set(pages).size).toBe(10);
    expect(pickPage(random, 0, 10)).toBeUndefined();
  });
});

describe("buildUrlSets", () => {
  const { hot, cold } = buildUrlSets(catalogue(), createRandom(7), { hot: 5_000, cold: 6_000 });

  it("puts the fixed pages first, then thousands of distinct URLs, none of them in the cold pool", () => {
    expect(hot.slice(0, FIXED_PAGES.length)).toEqual([...FIXED_PAGES]);
    expect(new Set(hot).size).toBe(5_000);
    expect(new Set(cold).size).toBe(6_000);
    expect(cold.filter((url) => hot.includes(url))).toEqual([]);
  });

  it("mixes every kind of public URL", () => {
    const kinds = (urls: string[]) =>
      new Set(
        urls.map(
          (u) =>
            u.match(/^\/(listing|api\/listings\/\d|api\/listings\?|browse\?search|browse|search|university|city)/)?.[1],
        ),
      );
    const expected = [
      "listing",
      "api/listings/1",
      "api/listings?",
      "browse?search",
      "browse",
      "search",
      "university",
      "city",
    ];
    for (const urls of [hot.slice(FIXED_PAGES.length), cold]) {
      const found = [...kinds(urls)].map((k) => (k?.startsWith("api/listings/") ? "api/listings/1" : k));
      expect(new Set(found)).toEqual(new Set(expected));
    }
  });

  it("uses each listing once, asks only for pages that exist, and only with valid filter values", () => {
    const slugs = [...hot, ...cold].filter((u) => u.startsWith("/listing/"));
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const url of [...hot, ...cold]) {
      const { pathname, searchParams } = new URL(url, "http://x");
      if (!pathname.startsWith("/browse") && !pathname.startsWith("/api/listings")) continue;
      const { filters, page, errors } = parseBrowseFilters(searchParams);
      expect(errors).toEqual([]);
      if (filters.search) continue;
      const perPage = Number(searchParams.get("limit") ?? BROWSE_PAGE_SIZE);
      const found = countMatching(groups, filters);
      expect(found).toBeGreaterThan(0);
      expect(page).toBeLessThanOrEqual(Math.max(1, Math.ceil(found / perPage)));
    }
  });

  it("fills the sets with other kinds once the listings are used up, and gives the same sets for the same seed", () => {
    const few = buildUrlSets(catalogue(100), createRandom(7), { hot: 1_000, cold: 1_000 });
    expect(few.hot.length + few.cold.length).toBe(2_000);
    expect(
      [...few.hot, ...few.cold].filter((u) => u.startsWith("/listing/") || /^\/api\/listings\/\d/.test(u)).length,
    ).toBe(100);
    expect(buildUrlSets(catalogue(), createRandom(7), { hot: 5_000, cold: 6_000 })).toEqual({ hot, cold });
  });
});

describe("takeDistinct", () => {
  it("gives up when the source repeats itself", () => {
    const seen = new Set(["/a"]);
    expect(takeDistinct(() => "/a", 10, seen)).toEqual([]);
    let i = 0;
    expect(takeDistinct(() => `/p${i++ % 3}`, 10, seen)).toEqual(["/p0", "/p1", "/p2"]);
  });
});

describe("createUrlGenerator with cycling listings", () => {
  it("starts the listings again once used up, so listing pages never stop", () => {
    const next = createUrlGenerator(catalogue(50), createRandom(3), { cycleListings: true });
    const urls = Array.from({ length: 2_000 }, next);
    const lastQuarter = urls.slice(1_500).filter((u) => u.startsWith("/listing/")).length;
    expect(lastQuarter).toBeGreaterThan(100);
    const once = createUrlGenerator(catalogue(50), createRandom(3));
    expect(
      Array.from({ length: 2_000 }, once)
        .slice(1_500)
        .some((u) => u.startsWith("/listing/")),
    ).toBe(false);
  });
});
