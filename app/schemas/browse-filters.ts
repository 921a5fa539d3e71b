import { CITIES, type Faculty, findCity, findFaculty, findUniversity, type University } from "~/directory/universities";
import {
  FACT_FILTER_PARAMS,
  FACT_FILTER_VALUES,
  type FactFilterParam,
  type FactFilters,
  FREE_BEDS_OPTIONS,
} from "./listing-facts";

export const PROPERTY_TYPES = ["single", "shared", "apartment", "hostel"] as const;
export const GENDERS = ["any", "male", "female"] as const;
/** 'nearest' orders by distance to the chosen faculty, so it needs a university (ADR 050). */
export const SORTS = ["newest", "price_asc", "price_desc", "relevance", "nearest"] as const;
export const AMENITIES = [
  "WiFi",
  "AC",
  "Parking",
  "Laundry",
  "Kitchen",
  "Security",
  "24/7 Water",
  "Furniture",
] as const;
/** The browse filters' 'Max price' choices: the home page's search form imports them alone (price-choices.ts). */
export { MAX_PRICE_OPTIONS } from "./price-choices";
/** The 'Max move-in cost' choices in LKR (ADR 047); any whole number works in a link. */
export const MAX_MOVE_IN_OPTIONS = [20000, 40000, 60000, 100000, 150000] as const;
/** The 'Within' choices in km around the chosen faculty (ADR 050); only these, so equal searches share a page. */
export const WITHIN_OPTIONS = [1, 2, 5, 10] as const;
export const BROWSE_PAGE_SIZE = 10;
export const API_DEFAULT_LIMIT = 20;
export const API_MAX_LIMIT = 50;
/** The query parameters of the list API and the browse pages (the OpenAPI document, the page cache's key). */
export const LIST_QUERY_PARAMS = [
  "university",
  "faculty",
  "location",
  "city",
  "minPrice",
  "maxPrice",
  "maxMoveIn",
  "within",
  "propertyType",
  "gender",
  ...FACT_FILTER_PARAMS,
  "freeBeds",
  "confirmed",
  "phone",
  "search",
  "q",
  "sort",
  "page",
  "limit",
] as const;
export type ListQueryParam = (typeof LIST_QUERY_PARAMS)[number];
const MAX_TEXT = 200;
const MAX_PRICE = 10_000_000;
/** Key money, a deposit and 12 months of the dearest rent. */
const MAX_MOVE_IN = 14 * MAX_PRICE;
const MAX_PAGE = 100_000;
/** The bounds the parser below enforces, for the OpenAPI document to state (one source for both). */
export const LIST_QUERY_BOUNDS = { text: MAX_TEXT, price: MAX_PRICE, moveIn: MAX_MOVE_IN, page: MAX_PAGE } as const;

export type PropertyType = (typeof PROPERTY_TYPES)[number];
export type Gender = (typeof GENDERS)[number];
/** "any" is no filter: a listing for any gender matches every search. */
export type GenderFilter = Exclude<Gender, "any">;
export type Sort = (typeof SORTS)[number];

export type BrowseFilters = FactFilters & {
  university?: string; // full university name from the directory
  faculty?: string;
  location?: string;
  city?: string; // city code
  minPrice?: number;
  maxPrice?: number;
  /** Key money + deposit + advance, in LKR; listings whose advance is not stated never match. */
  maxMoveIn?: number;
  /** Km from the chosen faculty (one of WITHIN_OPTIONS); needs a university from the directory. */
  within?: number;
  propertyType?: PropertyType;
  gender?: GenderFilter;
  /** Availability confirmed within this many days (ADR 056: one of CONFIRMED_OPTIONS). */
  confirmed?: number;
  /** Only listings whose owner confirmed the ad's phone number by SMS (`phone=confirmed`, ADR 080); ignored while phone confirmation is off. */
  phone?: typeof PHONE_CONFIRMED;
  search?: string;
  sort?: Sort;
};

/** The one value of `phone`: 'Phone confirmed only' (ADR 080). */
export const PHONE_CONFIRMED = "confirmed";

/** 'Confirmed in the last 7 days': the one choice browse offers. */
export const CONFIRMED_OPTIONS = [7] as const;

/** The query parameters a browse link can get wrong (the notice names them). */
export type FilterParam =
  | "minPrice"
  | "maxPrice"
  | "maxMoveIn"
  | "within"
  | "propertyType"
  | "gender"
  | FactFilterParam
  | "freeBeds"
  | "confirmed"
  | "phone"
  | "sort"
  | "page";
export type FilterError = { param: FilterParam; message: string };

/** Path values given by the route (/search/{location}, /university/{university}, ...). */
export type PathFilters = { location?: string; university?: string; city?: string };

function cleanText(value: string | null | undefined): string | undefined {
  if (value == null) return undefined;
  // Drop control characters (including NUL) and collapse white space.
  const cleaned = value
    // biome-ignore lint/suspicious/noControlCharactersInRegex: dropping control characters is what this pattern is for
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return cleaned ? cleaned.slice(0, MAX_TEXT) : undefined;
}

/** Path segments arrive URL-decoded by the router; '-' and '+' may stand for spaces. */
function fromPathSegment(value: string | undefined): string | undefined {
  return cleanText(value?.replace(/\+/g, " "));
}

function parseWholeNumber(
  raw: string | undefined,
  param: FilterParam,
  errors: FilterError[],
  max: number,
): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) {
    errors.push({ param, message: `${param} must be a whole number` });
    return undefined;
  }
  const n = Number(raw);
  if (n > max) {
    errors.push({ param, message: `${param} must be at most ${max}` });
    return undefined;
  }
  return n;
}

function resolveUniversity(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const found = findUniversity(value) ?? findUniversity(value.replace(/-/g, " "));
  return found ? found.name : value;
}

function resolveCity(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const found = findCity(value) ?? findCity(value.replace(/-/g, " "));
  return found ? found.code : value.toLowerCase();
}

/**
 * Reads browse filters from a query string (and path values). Invalid values
 * are reported in `errors` and left out of `filters`, so a page can ignore them
 * and an API can answer 400. The site-search template's `q` is the search text.
 */
export function parseBrowseFilters(
  params: URLSearchParams,
  path: PathFilters = {},
): { filters: BrowseFilters; page: number; errors: FilterError[] } {
  const errors: FilterError[] = [];
  const get = (name: string) => cleanText(params.get(name));
  const filters: BrowseFilters = {};

  const university = resolveUniversity(get("university") ?? fromPathSegment(path.university));
  if (university) filters.university = university;

  const faculty = get("faculty");
  if (faculty) {
    const uni = university ? findUniversity(university) : undefined;
    filters.faculty = (uni && findFaculty(uni, faculty)?.name) || faculty;
  }

  const location = get("location") ?? fromPathSegment(path.location);
  if (location) filters.location = location;

  const city = resolveCity(get("city") ?? fromPathSegment(path.city));
  if (city) filters.city = city;

  const minPrice = parseWholeNumber(get("minPrice"), "minPrice", errors, MAX_PRICE);
  if (minPrice !== undefined) filters.minPrice = minPrice;
  const maxPrice = parseWholeNumber(get("maxPrice"), "maxPrice", errors, MAX_PRICE);
  if (maxPrice !== undefined) filters.maxPrice = maxPrice;
  const maxMoveIn = parseWholeNumber(get("maxMoveIn"), "maxMoveIn", errors, MAX_MOVE_IN);
  if (maxMoveIn !== undefined) filters.maxMoveIn = maxMoveIn;

  const within = get("within");
  if (within !== undefined) {
    const km = Number(within);
    // Exactly '1', '2', '5' or '10', so one distance has one address (and one cached page).
    if (!(WITHIN_OPTIONS as readonly number[]).includes(km) || String(km) !== within)
      errors.push({ param: "within", message: `within must be one of ${WITHIN_OPTIONS.join(", ")}` });
    else if (!distanceOrigin(filters)) errors.push({ param: "within", message: "within needs a university" });
    else filters.within = km;
  }

  const propertyType = get("propertyType")?.toLowerCase();
  if (propertyType && propertyType !== "all") {
    if ((PROPERTY_TYPES as readonly string[]).includes(propertyType))
      filters.propertyType = propertyType as PropertyType;
    else errors.push({ param: "propertyType", message: `propertyType must be one of ${PROPERTY_TYPES.join(", ")}` });
  }

  const gender = get("gender")?.toLowerCase();
  if (gender && gender !== "any") {
    if ((GENDERS as readonly string[]).includes(gender)) filters.gender = gender as GenderFilter;
    else errors.push({ param: "gender", message: `gender must be one of ${GENDERS.join(", ")}` });
  }

  // The facts students ask first (ADR 051): each filter takes the one value its box sends.
  for (const param of FACT_FILTER_PARAMS) {
    const value = get(param)?.toLowerCase();
    if (value === undefined) continue;
    if (value === FACT_FILTER_VALUES[param]) Object.assign(filters, { [param]: value });
    else errors.push({ param, message: `${param} must be ${FACT_FILTER_VALUES[param]}` });
  }
  const freeBeds = get("freeBeds");
  if (freeBeds !== undefined) {
    const count = Number(freeBeds);
    if ((FREE_BEDS_OPTIONS as readonly number[]).includes(count) && String(count) === freeBeds)
      filters.freeBeds = count;
    else errors.push({ param: "freeBeds", message: `freeBeds must be one of ${FREE_BEDS_OPTIONS.join(", ")}` });
  }

  const confirmed = get("confirmed");
  if (confirmed !== undefined) {
    if ((CONFIRMED_OPTIONS as readonly number[]).includes(Number(confirmed)) && /^\d+$/.test(confirmed))
      filters.confirmed = Number(confirmed);
    else errors.push({ param: "confirmed", message: `confirmed must be ${CONFIRMED_OPTIONS.join(" or ")}` });
  }

  const phone = get("phone");
  if (phone !== undefined) {
    if (phone === PHONE_CONFIRMED) filters.phone = PHONE_CONFIRMED;
    else errors.push({ param: "phone", message: `phone must be ${PHONE_CONFIRMED}` });
  }

  const search = get("search") ?? get("q");
  if (search) filters.search = search;

  const sort = get("sort");
  if (sort) {
    if (!(SORTS as readonly string[]).includes(sort))
      errors.push({ param: "sort", message: `sort must be one of ${SORTS.join(", ")}` });
    else if (sort === "nearest" && !distanceOrigin(filters))
      errors.push({ param: "sort", message: "sort=nearest needs a university" });
    else filters.sort = sort as Sort;
  }

  const pageRaw = get("page");
  let page = 1;
  if (pageRaw !== undefined) {
    const n = parseWholeNumber(pageRaw, "page", errors, MAX_PAGE);
    if (n !== undefined) {
      if (n < 1) errors.push({ param: "page", message: "page must be at least 1" });
      else page = n;
    }
  }

  return { filters, page, errors };
}

/** The query string for a set of filters (page 1 is left out). */
export function filtersToSearchParams(filters: BrowseFilters, page = 1): URLSearchParams {
  const params = new URLSearchParams();
  const entries: [string, string | number | undefined][] = [
    ["search", filters.search],
    ["university", filters.university],
    ["faculty", filters.faculty],
    ["location", filters.location],
    ["city", filters.city],
    ["minPrice", filters.minPrice],
    ["maxPrice", filters.maxPrice],
    ["maxMoveIn", filters.maxMoveIn],
    ["within", filters.within],
    ["propertyType", filters.propertyType],
    ["gender", filters.gender],
    ...FACT_FILTER_PARAMS.map((param): [string, string | undefined] => [param, filters[param]]),
    ["freeBeds", filters.freeBeds],
    ["confirmed", filters.confirmed],
    ["phone", filters.phone],
    ["sort", filters.sort],
  ];
  for (const [key, value] of entries) if (value !== undefined && value !== "") params.set(key, String(value));
  if (page > 1) params.set("page", String(page));
  return params;
}

/** Where distances count to: the chosen faculty, else the university's main campus. */
export type DistanceOrigin = { university: University; faculty: Faculty; latitude: number; longitude: number };

/**
 * The point 'Within' and 'Nearest first' measure from, or null when no
 * university from the directory is chosen. A faculty the university lacks
 * falls back to the main campus.
 */
export function distanceOrigin(filters: Pick<BrowseFilters, "university" | "faculty">): DistanceOrigin | null {
  const university = filters.university ? findUniversity(filters.university) : undefined;
  if (!university) return null;
  const faculty =
    (filters.faculty ? findFaculty(university, filters.faculty) : undefined) ??
    university.faculties.find((f) => f.isMainCampus) ??
    university.faculties[0];
  if (!faculty) return null;
  return { university, faculty, latitude: faculty.latitude, longitude: faculty.longitude };
}

export { CITIES };
