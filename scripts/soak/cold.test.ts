import { expect, it } from "vitest";
import { MAX_AGE_MS } from "~/cache/page-cache.server";
import { COLD_AGAIN_AFTER_MS, createColdSource } from "./cold.ts";

it("asks for a URL again only after the page cache would have let its copy go", () => {
  expect(COLD_AGAIN_AFTER_MS).toBeGreaterThan(MAX_AGE_MS);
});

/** Like the generator with cycling listings: every other URL a listing page in turn, the rest new browse pages. */
function urls(listings: number) {
  let draws = 0;
  let listing = 0;
  return () => (draws++ % 2 === 0 ? `/listing/room-${(listing++ % listings) + 1}` : `/browse?page=${draws}`);
}

it("hands out listing pages for as long as it runs, each again only after a while, never a hot one", () => {
  let clock = 0;
  const hot = new Set(["/listing/room-1"]);
  const cold = createColdSource(urls(40), hot, { againAfterMs: 1_000, now: () => clock });
  const lastAsked = new Map<string, number>();
  const listingPages: number[] = [0, 0, 0];
  for (let i = 0; i < 3_000; i++) {
    clock += 10;
    const url = cold();
    expect(hot.has(url)).toBe(false);
    const last = lastAsked.get(url);
    if (last !== undefined) expect(clock - last).toBeGreaterThanOrEqual(1_000);
    lastAsked.set(url, clock);
    if (url.startsWith("/listing/")) listingPages[Math.floor(i / 1_000)]++;
  }
  // As many listing pages in the last third of the run as in the first: the mix does not drift.
  expect(listingPages[2]).toBeGreaterThan(listingPages[0] * 0.9);
  expect(listingPages[0]).toBeGreaterThan(300);
});

it("counts the listing pages passed over when the listings go round faster than that", () => {
  let clock = 0;
  const cold = createColdSource(urls(40), new Set(), { againAfterMs: 1_000, now: () => clock });
  for (let i = 0; i < 200; i++) {
    clock += 1;
    cold();
  }
  expect(cold.listingsTooRecent).toBeGreaterThan(0);
  expect(cold.tooRecent).toBe(cold.listingsTooRecent); // The browse pages here are all new.
});
