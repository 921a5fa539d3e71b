import { afterEach, describe, expect, it } from "vitest";
import { cachedCount, enableCountCache, forgetCounts, resetCountCache } from "./count-cache.server";

describe("the count cache", () => {
  afterEach(() => resetCountCache());

  const counter = (values: number[]) => {
    let calls = 0;
    return { count: async () => values[calls++] ?? -1, calls: () => calls };
  };

  it("counts every time until the server turns it on", async () => {
    const c = counter([3, 4]);
    expect(await cachedCount("k", c.count)).toBe(3);
    expect(await cachedCount("k", c.count)).toBe(4);
  });

  it("keeps a count per key, forgets all of them on a change, and keeps one for at most a minute", async () => {
    enableCountCache();
    const c = counter([3, 4, 5]);
    expect(await cachedCount("k", c.count, 0)).toBe(3);
    expect(await cachedCount("k", c.count, 59_999)).toBe(3);
    expect(c.calls()).toBe(1);
    forgetCounts();
    expect(await cachedCount("k", c.count, 60_000)).toBe(4);
    expect(await cachedCount("k", c.count, 120_000)).toBe(5);
    const other = counter([7]);
    expect(await cachedCount("other", other.count, 120_000)).toBe(7);
  });

  it("does not keep a count that was being made when a change came", async () => {
    enableCountCache();
    let release: (n: number) => void = () => {};
    const slow = cachedCount("k", () => new Promise<number>((resolve) => (release = resolve)));
    forgetCounts();
    release(3);
    expect(await slow).toBe(3);
    const c = counter([4]);
    expect(await cachedCount("k", c.count)).toBe(4);
  });
});
