import { type ExpressionBuilder, sql } from "kysely";
import type { DB } from "~/db/db.server";
import type { Database } from "~/db/schema";
import { containsInsensitive, locationContains, notIndexed, textSearch } from "~/db/search.server";
import { CITIES, UNIVERSITIES } from "~/directory/universities";
import { expiryOfConfirmation } from "~/lib/days-left";
import { type SearchArea, searchArea } from "~/lib/geo/nearby";
import { type BrowseFilters, distanceOrigin } from "~/schemas/browse-filters";
import { FACT_FILTER_PARAMS, type FactFilterParam } from "~/schemas/listing-facts";
import { isPublicNow } from "./listing-summary.server";

/*
 * Browse's filters as SQL conditions on listings (ADR 011): each filter's
 * column open to its indexes or hidden from them, depending on which index
 * the page walks; the text search narrowed by the university and faculty.
 * listing-search.server.ts counts, orders and pages with them.
 */

/**
 * Which index a page should walk: that of its order ('newest' or 'price'),
 * checking the filters on each entry, or whichever the planner picks.
 */
export type Walk = "newest" | "price" | "planner";

/**
 * Filters with an index of their own in price order (migrations 011 and 046): a price
 * walk leaves them indexable, so "apartments, cheapest first" reads apartments
 * only instead of every cheaper room before the first apartment.
 */
const OWN_PRICE_ORDER: ReadonlySet<string> = new Set(["propertyType", "university", "city"]);

/** Squared km from the area's centre to the listing's place, by the flat measure of searchArea (ADR 050). */
export function distanceSquared(area: SearchArea) {
  const north = sql`(${sql.ref("listings.placeLatitude")} - ${area.center.latitude}) * ${area.kmPerDegreeLat}`;
  const east = sql`(${sql.ref("listings.placeLongitude")} - ${area.center.longitude}) * ${area.kmPerDegreeLng}`;
  return sql<number>`(${north} * ${north} + ${east} * ${east})`;
}

/**
 * Listings whose place lies within the area's circle: its latitude bands and
 * longitude range find them on the place index (with the university, which
 * every such search has), then the exact check runs on the index entry.
 */
export function insideArea(db: DB, eb: ExpressionBuilder<Database, "listings">, area: SearchArea, walk: Walk) {
  const column = (name: "placeBand" | "placeLongitude") => filterColumn(db, eb, walk, name);
  return eb.and([
    eb(column("placeBand"), "in", area.bands),
    eb(column("placeLongitude"), ">=", area.minLongitude),
    eb(column("placeLongitude"), "<=", area.maxLongitude),
    eb(distanceSquared(area), "<=", area.km * area.km),
  ]);
}

type FilterColumn =
  | "university"
  | "faculty"
  | "city"
  | "propertyType"
  | "gender"
  | "moveInCost"
  | "placeBand"
  | "placeLongitude"
  | FactFilterParam
  | "bedsFree"
  | "phoneConfirmedUntil";

/**
 * A filter's column: open to its indexes when the planner picks the plan, or
 * when a price walk has an index of that column in price order; hidden from
 * them while the page walks its order's index and checks each entry (ADR 011).
 */
function filterColumn(db: DB, eb: ExpressionBuilder<Database, "listings">, walk: Walk, name: FilterColumn) {
  return walk === "planner" || (walk === "price" && OWN_PRICE_ORDER.has(name))
    ? eb.ref(`listings.${name}`)
    : notIndexed(db, eb.ref(`listings.${name}`));
}

export function filterConditions(
  db: DB,
  eb: ExpressionBuilder<Database, "listings">,
  filters: BrowseFilters,
  now: string,
  walk: Walk,
) {
  const column = (name: FilterColumn) => filterColumn(db, eb, walk, name);
  const conditions = [isPublicNow(db, eb, now)];
  if (filters.university) conditions.push(eb(column("university"), "=", filters.university));
  if (filters.faculty) conditions.push(eb(column("faculty"), "=", filters.faculty));
  if (filters.city) conditions.push(eb(column("city"), "=", filters.city));
  if (filters.propertyType) conditions.push(eb(column("propertyType"), "=", filters.propertyType));
  // A gender filter also accepts listings for 'any'.
  if (filters.gender) conditions.push(eb(column("gender"), "in", [filters.gender, "any"]));
  // The facts students ask first (ADR 051): their count index holds them all (migration 019).
  for (const param of FACT_FILTER_PARAMS) {
    const value = filters[param];
    if (value !== undefined) conditions.push(eb(column(param), "=", value));
  }
  if (filters.freeBeds !== undefined) conditions.push(eb(column("bedsFree"), ">=", filters.freeBeds));
  // The owner's standing confirmation of the ad's number: it lapses by itself (ADR 084).
  if (filters.phone) conditions.push(eb(column("phoneConfirmedUntil"), ">", now));
  // Confirmed within N days: its expiry is less than 30 - N days away (ADR 056).
  if (filters.confirmed !== undefined)
    conditions.push(
      eb(notIndexed(db, eb.ref("listings.expiresAt")), ">", expiryOfConfirmation(filters.confirmed, new Date(now))),
    );
  // The price index orders a price sort, so its range stays usable there. Not beside a faculty: SQLite's
  // statistics average a faculty's listings over every faculty ('Main Campus' has most of them), so the
  // planner drove a count from the university's price range and read a table row per match, where the
  // faculty's count index holds the price too (12-16 ms against 1-1.7 ms at 100,000 listings, ADR 119).
  const price =
    walk === "newest" || (walk === "planner" && filters.faculty)
      ? notIndexed(db, eb.ref("listings.price"))
      : eb.ref("listings.price");
  if (filters.minPrice !== undefined) conditions.push(eb(price, ">=", filters.minPrice));
  if (filters.maxPrice !== undefined) conditions.push(eb(price, "<=", filters.maxPrice));
  // Unstated terms (null) never pass: a listing is not promised to cost less than it may.
  if (filters.maxMoveIn !== undefined) conditions.push(eb(column("moveInCost"), "<=", filters.maxMoveIn));
  const origin = filters.within !== undefined ? distanceOrigin(filters) : null;
  if (origin && filters.within !== undefined)
    conditions.push(insideArea(db, eb, searchArea(origin, filters.within), walk));
  if (filters.location) {
    // The spec matches the location text; we also match the city it names,
    // so a listing whose location is a map link is still found (ADR 002).
    const needle = filters.location.toLowerCase();
    const cityCodes = CITIES.filter((c) => c.code.includes(needle) || c.name.toLowerCase().includes(needle)).map(
      (c) => c.code,
    );
    // Walking an index, the text is checked on each entry; otherwise the trigram index finds it.
    const either = [
      walk === "planner"
        ? locationContains(db, filters.location)
        : containsInsensitive(eb.ref("listings.location"), filters.location),
    ];
    if (cityCodes.length > 0) either.push(eb(column("city"), "in", cityCodes));
    conditions.push(eb.or(either));
  }
  return conditions;
}

/** The search's words as the database matches them, narrowed by its university and faculty; null without words. */
export function filtersTextSearch(db: DB, filters: BrowseFilters) {
  if (!filters.search) return null;
  return textSearch(db, filters.search, {
    university: distinctiveWords(filters.university, UNIVERSITY_NAMES),
    faculty: distinctiveWords(filters.faculty, FACULTY_NAMES),
  });
}

const UNIVERSITY_NAMES = UNIVERSITIES.map((u) => u.name);
/** One entry per faculty, so 'Main Campus', which every university has, counts as common. */
const FACULTY_NAMES = UNIVERSITIES.flatMap((u) => u.faculties.map((f) => f.name));

/**
 * The words of a university or faculty name that no other name in the
 * directory has ('jaffna' of 'University of Jaffna'): they narrow a search
 * within it cheaply, where 'university' and 'of', in nearly every listing,
 * cost more to match than they save (textSearch, ADR 011).
 */
function distinctiveWords(value: string | undefined, names: readonly string[]): string | undefined {
  if (!value) return undefined;
  const words = (name: string): string[] => name.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const own = words(value).filter((word) => names.filter((name) => words(name).includes(word)).length <= 1);
  return own.length > 0 ? own.join(" ") : undefined;
}
