import { describe, expect, it } from "vitest";
import { type PageItem, pageWindow, paginate } from "./pagination";

/** Compact picture of a window: page numbers, with "…" for each gap. */
function show(items: PageItem[]): (number | "…")[] {
  return items.map((item) => (item.type === "page" ? item.page : "…"));
}

describe("pageWindow", () => {
  it("is empty with one page or none (pagination is hidden)", () => {
    expect(pageWindow(1, 0)).toEqual([]);
    expect(pageWindow(1, 1)).toEqual([]);
  });

  it("lists every page when they all fit", () => {
    expect(show(pageWindow(1, 2))).toEqual([1, 2]);
    expect(show(pageWindow(3, 5))).toEqual([1, 2, 3, 4, 5]);
  });

  it("shows 2 pages either side of the current one plus the first and the last, with ellipses", () => {
    expect(show(pageWindow(10, 20))).toEqual([1, "…", 8, 9, 10, 11, 12, "…", 20]);
  });

  it("has no ellipsis at the start near the first page", () => {
    expect(show(pageWindow(1, 20))).toEqual([1, 2, 3, "…", 20]);
    expect(show(pageWindow(3, 20))).toEqual([1, 2, 3, 4, 5, "…", 20]);
    // The window (2..6) touches page 1, so nothing is left out.
    expect(show(pageWindow(4, 20))).toEqual([1, 2, 3, 4, 5, 6, "…", 20]);
  });

  it("puts an ellipsis for a gap of one page or more", () => {
    expect(show(pageWindow(5, 20))).toEqual([1, "…", 3, 4, 5, 6, 7, "…", 20]);
  });

  it("has no ellipsis at the end near the last page", () => {
    expect(show(pageWindow(20, 20))).toEqual([1, "…", 18, 19, 20]);
    expect(show(pageWindow(17, 20))).toEqual([1, "…", 15, 16, 17, 18, 19, 20]);
  });

  it("gives each ellipsis a distinct key", () => {
    const keys = pageWindow(10, 20)
      .filter((item) => item.type === "ellipsis")
      .map((item) => (item.type === "ellipsis" ? item.key : ""));
    expect(new Set(keys).size).toBe(2);
  });

  it("stays within 1..totalPages when the current page is past the end", () => {
    const pages = show(pageWindow(50, 4)).filter((p) => p !== "…");
    expect(pages.every((p) => typeof p === "number" && p >= 1 && p <= 4)).toBe(true);
  });
});

describe("paginate", () => {
  it("computes totals and neighbours", () => {
    expect(paginate(1, 10, 0)).toEqual({
      page: 1,
      limit: 10,
      total: 0,
      totalPages: 0,
      hasNext: false,
      hasPrev: false,
      totalIsExact: true,
    });
    expect(paginate(1, 10, 10)).toMatchObject({ totalPages: 1, hasNext: false, hasPrev: false });
    expect(paginate(2, 10, 11)).toMatchObject({ totalPages: 2, hasNext: false, hasPrev: true });
    expect(paginate(1, 10, 45)).toMatchObject({ totalPages: 5, hasNext: true, hasPrev: false });
  });

  it("pages up to a bound when counting stopped early", () => {
    expect(paginate(1000, 10, 10_000, false)).toMatchObject({
      totalPages: 1000,
      hasNext: false,
      hasPrev: true,
      totalIsExact: false,
    });
    expect(paginate(7, 50, 10_000, false)).toMatchObject({ totalPages: 200, hasNext: true, totalIsExact: false });
  });
});
