import { describe, expect, it } from "vitest";
import { createCountMemo } from "./count-memo.server";

const listingChanged = { all: false, listingIds: [7], viewedListingIds: [] };
const viewsCounted = { all: false, listingIds: [], viewedListingIds: [7] };

describe("count memo", () => {
  it("counts a key once and answers later pages from memory", async () => {
    const memo = createCountMemo();
    let counted = 0;
    const compute = async () => ++counted * 100;
    expect(await memo.count("a", compute)).toBe(100);
    expect(await memo.count("a", compute)).toBe(100);
    expect(await memo.count("b", compute)).toBe(200);
    expect(counted).toBe(2);
  });

  it("forgets every count when a listing changes, not when only views were counted", async () => {
    const memo = createCountMemo();
    let rows = 3;
    const compute = async () => rows;
    await memo.count("a", compute);
    rows = 4;
    memo.forget(viewsCounted);
    expect(await memo.count("a", compute)).toBe(3);
    memo.forget(listingChanged);
    expect(await memo.count("a", compute)).toBe(4);
    rows = 5;
    memo.forget({ all: true, listingIds: [] });
    expect(await memo.count("a", compute)).toBe(5);
  });

  it("does not keep a count that was under way when a listing changed", async () => {
    const memo = createCountMemo();
    let release = () => {};
    const slow = memo.count("a", () => new Promise<number>((resolve) => (release = () => resolve(3))));
    memo.forget(listingChanged);
    release();
    expect(await slow).toBe(3);
    expect(await memo.count("a", async () => 4)).toBe(4);
  });

  it("counts again once a count is older than its age, as expiring listings change it without a write", async () => {
    let clock = 0;
    const memo = createCountMemo({ maxAgeMs: 1000, now: () => clock });
    await memo.count("a", async () => 3);
    clock = 999;
    expect(await memo.count("a", async () => 4)).toBe(3);
    clock = 1000;
    expect(await memo.count("a", async () => 4)).toBe(4);
  });

  it("starts again empty past its size instead of growing without bound", async () => {
    const memo = createCountMemo({ maxEntries: 2 });
    for (const key of ["a", "b", "c"]) await memo.count(key, async () => 1);
    expect(memo.size).toBe(1);
  });
});
