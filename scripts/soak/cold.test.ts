import { expect, it } from "vitest";
import { MAX_AGE_MS } from "~/cache/page-cache.server";
import { COLD_AGAIN_AFTER_MS, createColdSource, listingsNeeded, takesListing } from "./cold.ts";

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

it("knows the listings a rate needs so that none comes round before a page may leave the cache", () => {
  // 45 cold URLs a second, 45% of them listings: 20 a second, 6 minutes of them and a quarter more.
  expect(listingsNeeded(45, 0.45)).toBe(Math.ceil(45 * 0.45 * 360 * 1.25));
  expect(listingsNeeded(45, 0.45)).toBeGreaterThan(6_667); // The third of 20,000 that ran round at 204 actions/s.
  // At that many, the source above passes over no listing page.
  let clock = 0;
  const cold = createColdSource(urls(listingsNeeded(50, 0.5, 1_000)), new Set(), {
    againAfterMs: 1_000,
    now: () => clock,
  });
  for (let i = 0; i < 5_000; i++) {
    clock += 20; // 50 URLs a second, half of them listing pages.
    cold();
  }
  expect(cold.listingsTooRecent).toBe(0);
});

it("counts a listing page and one ad from the JSON API as taking a listing, nothing else", () => {
  expect(
    ["/listing/room-1", "/api/listings/42", "/api/listings?page=2", "/browse?search=room"].map(takesListing),
  ).toEqual([true, true, false, false]);
});
