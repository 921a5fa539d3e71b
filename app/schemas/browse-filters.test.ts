import { describe, expect, it } from "vitest";
import { distanceOrigin, filtersToSearchParams, parseBrowseFilters } from "./browse-filters";

function parse(query: string, path = {}) {
  return parseBrowseFilters(new URLSearchParams(query), path);
}

function errorParams(query: string): string[] {
  return parse(query).errors.map((e) => e.param);
}

describe("parseBrowseFilters", () => {
  it("has no filters, page 1 and no errors for an empty query", () => {
    expect(parse("")).toEqual({ filters: {}, page: 1, errors: [] });
  });

  it("takes the site-search template's q as the search text, with search winning over q", () => {
    expect(parse("q=annex+near+campus").filters.search).toBe("annex near campus");
    expect(parse("search=room&q=annex").filters.search).toBe("room");
  });

  it("trims, collapses white space and drops control characters in text values", () => {
    expect(parse("search=%20%20big%0A%00room%20%20").filters.search).toBe("big room");
    expect(parse("location=%20%20").filters.location).toBeUndefined();
  });

  it("reads whole-number prices", () => {
    expect(parse("minPrice=5000&maxPrice=20000").filters).toEqual({ minPrice: 5000, maxPrice: 20000 });
    expect(parse("minPrice=0").filters.minPrice).toBe(0);
  });

  it.each(["abc", "15.5", "-100", "1e4", "15,000", "0x10"])("reports and ignores the price %s", (value) => {
    const { filters, errors } = parse(`minPrice=${encodeURIComponent(value)}&maxPrice=${encodeURIComponent(value)}`);
    expect(filters.minPrice).toBeUndefined();
    expect(filters.maxPrice).toBeUndefined();
    expect(errors.map((e) => e.param)).toEqual(["minPrice", "maxPrice"]);
  });

  it("reports prices that are too large", () => {
    expect(errorParams("maxPrice=99999999999")).toEqual(["maxPrice"]);
  });

  it("reads the maximum move-in cost as whole rupees, and reports anything else", () => {
    expect(parse("maxMoveIn=40000").filters).toEqual({ maxMoveIn: 40000 });
    expect(parse("maxMoveIn=0").filters).toEqual({ maxMoveIn: 0 });
    for (const value of ["40,000", "-1", "1.5", "lots", "999999999999"]) {
      expect(errorParams(`maxMoveIn=${encodeURIComponent(value)}`)).toEqual(["maxMoveIn"]);
    }
  });

  it("reads 'Within' (1, 2, 5 or 10 km) and 'Nearest first' only with a university to measure from (ADR 050)", () => {
    const uom = "university=University%20of%20Moratuwa";
    expect(parse(`${uom}&within=2&sort=nearest`).filters).toEqual({
      university: "University of Moratuwa",
      within: 2,
      sort: "nearest",
    });
    for (const value of ["3", "2.0", "02", "-1", "far", "100"])
      expect(errorParams(`${uom}&within=${value}`)).toEqual(["within"]);
    expect(errorParams("within=2&sort=nearest")).toEqual(["within", "sort"]);
    expect(errorParams("university=Atlantis&within=2")).toEqual(["within"]);
  });

  it("measures from the chosen faculty, else the main campus (ADR 050)", () => {
    const usj = { university: "University of Sri Jayewardenepura" };
    expect(distanceOrigin(usj)?.faculty.name).toBe("Main Campus");
    const mattegoda = distanceOrigin({ ...usj, faculty: "Faculty of Engineering (new)" });
    expect(mattegoda).toMatchObject({ faculty: { city: "Mattegoda" } });
    expect(mattegoda?.latitude).toBe(mattegoda?.faculty.latitude);
    expect(distanceOrigin({ ...usj, faculty: "Faculty of Dance" })?.faculty.name).toBe("Main Campus");
    expect(distanceOrigin({ university: "Atlantis" })).toBeNull();
    expect(distanceOrigin({})).toBeNull();
  });

  it("keeps valid filters when others are invalid", () => {
    const { filters, errors } = parse("minPrice=abc&propertyType=single&gender=robot");
    expect(filters).toEqual({ propertyType: "single" });
    expect(errors.map((e) => e.param)).toEqual(["minPrice", "gender"]);
  });

  it.each([
    ["university-of-moratuwa", "id"],
    ["UOM", "short name"],
    ["uom", "short name in lower case"],
    ["University of Moratuwa", "full name"],
    ["  university of MORATUWA ", "full name in any case"],
  ])("finds the university by %s (%s)", (value) => {
    expect(parse(`university=${encodeURIComponent(value)}`).filters.university).toBe("University of Moratuwa");
  });

  it("reads the university from the path (/university/{university}), hyphens or plus signs standing for spaces", () => {
    expect(parse("", { university: "UOM" }).filters.university).toBe("University of Moratuwa");
    expect(parse("", { university: "University-of-Peradeniya" }).filters.university).toBe("University of Peradeniya");
    expect(parse("", { university: "University+of+Colombo" }).filters.university).toBe("University of Colombo");
  });

  it("lets the query string win over the path value", () => {
    expect(parse("university=UOC", { university: "UOM" }).filters.university).toBe("University of Colombo");
  });

  it("keeps an unknown university as given (it then matches nothing)", () => {
    expect(parse("university=Hogwarts").filters.university).toBe("Hogwarts");
  });

  it("resolves a faculty of the chosen university by id or name", () => {
    expect(parse("university=USJ&faculty=usj-engineering-new").filters.faculty).toBe("Faculty of Engineering (new)");
    expect(parse("university=USJ&faculty=faculty%20of%20engineering%20(current)").filters.faculty).toBe(
      "Faculty of Engineering (current)",
    );
  });

  it("finds a city by code or by name, from the query or the path", () => {
    expect(parse("city=moratuwa").filters.city).toBe("moratuwa");
    expect(parse("city=Moratuwa").filters.city).toBe("moratuwa");
    expect(parse("city=Mount%20Lavinia").filters.city).toBe("mount-lavinia-engineering");
    expect(parse("", { city: "galle-medical" }).filters.city).toBe("galle-medical");
    expect(parse("", { city: "Ragama" }).filters.city).toBe("ragama-medical");
  });

  it("reads /search/{location}/{university} path values", () => {
    const { filters } = parse("", { location: "Katubedda Junction", university: "UOM" });
    expect(filters).toEqual({ location: "Katubedda Junction", university: "University of Moratuwa" });
  });

  it("treats 'all' property types and 'any' gender as no filter, in any case", () => {
    expect(parse("propertyType=all&gender=any")).toEqual({ filters: {}, page: 1, errors: [] });
    expect(parse("propertyType=ALL&gender=Any").filters).toEqual({});
  });

  it("accepts each property type and gender in any case, and reports unknown ones", () => {
    expect(parse("propertyType=Hostel&gender=FEMALE").filters).toEqual({ propertyType: "hostel", gender: "female" });
    expect(errorParams("propertyType=annex")).toEqual(["propertyType"]);
  });

  it("accepts the sort orders and reports others", () => {
    expect(parse("sort=price_asc").filters.sort).toBe("price_asc");
    expect(parse("sort=relevance&search=x").filters.sort).toBe("relevance");
    expect(errorParams("sort=cheapest")).toEqual(["sort"]);
  });

  it.each([
    ["", 1, []],
    ["page=1", 1, []],
    ["page=7", 7, []],
    ["page=0", 1, ["page"]],
    ["page=-2", 1, ["page"]],
    ["page=2.5", 1, ["page"]],
    ["page=abc", 1, ["page"]],
    ["page=100001", 1, ["page"]],
  ])("reads %j as page %i", (query, page, errors) => {
    const result = parse(query);
    expect(result.page).toBe(page);
    expect(result.errors.map((e) => e.param)).toEqual(errors);
  });
});

describe("filtersToSearchParams", () => {
  it("round-trips through parseBrowseFilters, leaving out page 1", () => {
    const filters = {
      search: "quiet room",
      university: "University of Moratuwa",
      minPrice: 5000,
      maxPrice: 25000,
      maxMoveIn: 60000,
      within: 5,
      propertyType: "single" as const,
      gender: "female" as const,
      sort: "price_asc" as const,
    };
    expect(filtersToSearchParams(filters).has("page")).toBe(false);
    const params = filtersToSearchParams(filters, 3);
    expect(params.get("page")).toBe("3");
    expect(parseBrowseFilters(params)).toEqual({ filters, page: 3, errors: [] });
  });
});
