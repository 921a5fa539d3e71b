import type { BrowseFilters } from "~/schemas/browse-filters";
import type { FactFilterParam } from "~/schemas/listing-facts";

/**
 * The filter form's values as the user edits them (strings, like the inputs).
 * The same names are the query parameters the no-JavaScript form submits.
 */
export type FilterDraft = Record<FactFilterParam, string> & {
  search: string;
  university: string;
  faculty: string;
  location: string;
  city: string;
  minPrice: string;
  maxPrice: string;
  maxMoveIn: string;
  within: string;
  propertyType: string;
  gender: string;
  freeBeds: string;
  confirmed: string;
  phone: string;
  sort: string;
};

export type DraftField = keyof FilterDraft;

export const FILTER_FORM_ID = "browse-filters";

/**
 * The query string's order. The fact filters are written out rather than
 * spread from FACT_FILTER_PARAMS, so the browser loads nothing from
 * listing-facts.ts (browse budget); filter-draft.test.ts checks the list is complete.
 */
export const FIELD_ORDER: readonly DraftField[] = [
  "search",
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
  "bills",
  "meals",
  "bathroom",
  "cooking",
  "visitors",
  "curfew",
  "freeBeds",
  "confirmed",
  "phone",
  "sort",
];

/**
 * The sort select's empty value means "the default order": newest first, or
 * best match while there is search text, so adding search text needs no second choice.
 */
function sortValue(filters: BrowseFilters): string {
  const sort = filters.sort;
  if (!sort || sort === "relevance" || (sort === "newest" && !filters.search)) return "";
  return sort;
}

export function draftFromFilters(filters: BrowseFilters): FilterDraft {
  // The form's fields are the filters' names: each as the input shows it, empty when not set.
  const draft = Object.fromEntries(FIELD_ORDER.map((field) => [field, filters[field]?.toString() ?? ""]));
  return { ...(draft as FilterDraft), sort: sortValue(filters) };
}

/**
 * Non-empty values only, in a stable order; `omit` drops values the page's
 * path already gives. Fields the form lacks (no faculty choice) count as empty.
 */
export function draftToSearchParams(
  draft: Partial<FilterDraft>,
  omit: Partial<Record<DraftField, boolean>> = {},
): URLSearchParams {
  const params = new URLSearchParams();
  // Distance is to the chosen university: without one, 'Within' and 'Nearest first' have nothing to measure from.
  const measured = Boolean(draft.university?.trim()) || Boolean(omit.university);
  for (const field of FIELD_ORDER) {
    if (!measured && (field === "within" || (field === "sort" && draft.sort === "nearest"))) continue;
    const raw = draft[field] ?? "";
    // '15,000' typed into a price means 15000.
    const value = (field === "minPrice" || field === "maxPrice" ? raw.replace(/[,\s]/g, "") : raw).trim();
    if (value && !omit[field]) params.set(field, value);
  }
  return params;
}

export function activeFilterCount(filters: BrowseFilters): number {
  // The form's fields are the filters' names; the order is no filter.
  return FIELD_ORDER.filter((k) => k !== "sort" && filters[k] !== undefined && filters[k] !== "").length;
}
