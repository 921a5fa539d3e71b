import { describe, expect, it } from "vitest";
import { LIST_QUERY_PARAMS, parseBrowseFilters } from "~/schemas/browse-filters";
import { FACT_FILTER_PARAMS } from "~/schemas/listing-facts";
import { draftFromFilters, draftToSearchParams, FIELD_ORDER } from "./filter-draft";

describe("filter draft", () => {
  it("sends only non-empty values, in a stable order", () => {
    const draft = {
      ...draftFromFilters({}),
      gender: "female",
      university: "University of Moratuwa",
      search: "  quiet room ",
    };
    expect(draftToSearchParams(draft).toString()).toBe(
      "search=quiet+room&university=University+of+Moratuwa&gender=female",
    );
  });

  it("orders every filter browse reads once, the fact filters as listing-facts.ts lists them", () => {
    // Every query parameter of the list but the paging and the API's 'q' alias is a field of the form.
    const filters = LIST_QUERY_PARAMS.filter((param) => !["q", "page", "limit"].includes(param));
    expect([...FIELD_ORDER].sort()).toEqual([...filters].sort());
    expect(Object.keys(draftFromFilters({})).sort()).toEqual([...filters].sort());
    expect(new Set(FIELD_ORDER).size).toBe(FIELD_ORDER.length);
    expect(FIELD_ORDER.filter((field) => (FACT_FILTER_PARAMS as string[]).includes(field))).toEqual(FACT_FILTER_PARAMS);
  });

  it("leaves out the values the page's path already gives", () => {
    const draft = { ...draftFromFilters({ university: "University of Moratuwa" }), propertyType: "single" };
    expect(draftToSearchParams(draft, { university: true }).toString()).toBe("propertyType=single");
  });

  it("drops 'Within' and 'Nearest first' once no university is chosen (ADR 050)", () => {
    const chosen = { university: "University of Moratuwa", within: "2", sort: "nearest" };
    expect(draftToSearchParams(chosen).toString()).toBe("university=University+of+Moratuwa&within=2&sort=nearest");
    expect(draftToSearchParams({ ...chosen, university: "" }).toString()).toBe("");
    expect(draftToSearchParams({ university: "", within: "5", sort: "price_asc" }).toString()).toBe("sort=price_asc");
    // The university in the page's path counts.
    expect(draftToSearchParams(chosen, { university: true }).toString()).toBe("within=2&sort=nearest");
  });

  it("reads typed prices with thousands separators as whole numbers", () => {
    const draft = { ...draftFromFilters({}), minPrice: "15,000", maxPrice: " 25 000 " };
    const params = draftToSearchParams(draft);
    expect(parseBrowseFilters(params)).toEqual({ filters: { minPrice: 15000, maxPrice: 25000 }, page: 1, errors: [] });
  });

  it("shows the default order as the empty sort choice", () => {
    expect(draftFromFilters({}).sort).toBe("");
    expect(draftFromFilters({ sort: "newest" }).sort).toBe("");
    expect(draftFromFilters({ sort: "relevance", search: "x" }).sort).toBe("");
    expect(draftFromFilters({ sort: "newest", search: "x" }).sort).toBe("newest");
    expect(draftFromFilters({ sort: "price_desc" }).sort).toBe("price_desc");
  });

  it("round-trips parsed filters", () => {
    const { filters } = parseBrowseFilters(
      new URLSearchParams("university=UOM&minPrice=5000&propertyType=hostel&gender=male&sort=price_asc"),
    );
    expect(parseBrowseFilters(draftToSearchParams(draftFromFilters(filters))).filters).toEqual(filters);
  });
});
