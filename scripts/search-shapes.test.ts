import { describe, expect, it } from "vitest";
import { findCity, findFaculty, findUniversity } from "../app/directory/universities";
import { parseBrowseFilters } from "../app/schemas/browse-filters";
import { searchShapes } from "./search-shapes.ts";

describe("searchShapes", () => {
  const shapes = searchShapes();

  it("has distinct names and paths", () => {
    expect(new Set(shapes.map((s) => s.name)).size).toBe(shapes.length);
    expect(new Set(shapes.map((s) => s.path)).size).toBe(shapes.length);
  });

  it("asks only with parameters and values the browse page accepts", () => {
    for (const { path } of shapes) {
      const { pathname, searchParams } = new URL(path, "http://x");
      const { filters, errors } = parseBrowseFilters(searchParams);
      expect(errors, path).toEqual([]);
      if (filters.university) {
        const university = findUniversity(filters.university);
        expect(university, path).toBeDefined();
        if (filters.faculty) expect(findFaculty(university!, filters.faculty), path).toBeDefined();
      }
      if (filters.city) expect(findCity(filters.city), path).toBeDefined();
      const [, route, , university] = pathname.split("/");
      expect(["browse", "search"]).toContain(route);
      if (university) expect(findUniversity(university), path).toBeDefined();
    }
  });

  it("covers each filter of app/schemas/browse-filters.ts", () => {
    const used = new Set(shapes.flatMap(({ path }) => [...new URL(path, "http://x").searchParams.keys()]));
    expect([...used].sort()).toEqual([
      "bathroom",
      "bills",
      "city",
      "confirmed",
      "cooking",
      "curfew",
      "faculty",
      "freeBeds",
      "gender",
      "maxMoveIn",
      "maxPrice",
      "meals",
      "minPrice",
      "page",
      "phone",
      "propertyType",
      "search",
      "sort",
      "university",
      "visitors",
      "within",
    ]);
  });
});
