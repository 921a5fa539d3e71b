/**
 * The soak's never-cached URLs, for as long as it runs (ADR 126). The benchmark's generator
 * hands out each listing once, and a soak uses them up in minutes (a third of 20,000 listings
 * at about 600 listing pages a minute): from then on its cold mix was browse and search pages
 * only, two to three times the work each, and a drift the server did not have. A URL is cold
 * again once any page the cache kept of it has reached its age limit (the page cache's
 * MAX_AGE_MS, 5 minutes), so listings are handed out again in turn, each at least this long
 * after its last time.
 */
export const COLD_AGAIN_AFTER_MS = 6 * 60_000;

export type ColdSource = {
  (): string;
  /** URLs drawn and passed over because they had been asked for too recently (a few filter sets come round often). */
  readonly tooRecent: number;
  /** Of those, listing pages: the listings went round faster than the page cache lets a copy go. */
  readonly listingsTooRecent: number;
};

export function createColdSource(
  next: () => string,
  /** Never cold: the hot set. */
  hot: ReadonlySet<string>,
  options: { againAfterMs?: number; now?: () => number; tries?: number } = {},
): ColdSource {
  const { againAfterMs = COLD_AGAIN_AFTER_MS, now = Date.now, tries = 10_000 } = options;
  const askedAt = new Map<string, number>();
  let tooRecent = 0;
  let listingsTooRecent = 0;
  const draw = () => {
    for (let i = 0; i < tries; i++) {
      const url = next();
      if (hot.has(url)) continue;
      const at = askedAt.get(url);
      const time = now();
      if (at !== undefined && time - at < againAfterMs) {
        tooRecent++;
        if (url.startsWith("/listing/")) listingsTooRecent++;
        continue;
      }
      askedAt.set(url, time);
      return url;
    }
    return next();
  };
  return Object.defineProperties(draw, {
    tooRecent: { get: () => tooRecent },
    listingsTooRecent: { get: () => listingsTooRecent },
  }) as ColdSource;
}

/** A URL that takes one of the generator's listings: a listing page or one ad from the JSON API. */
export function takesListing(url: string): boolean {
  return url.startsWith("/listing/") || /^\/api\/listings\/\d/.test(url);
}

/**
 * How many listings the cold URLs need at `coldPerSecond` so that each comes round no sooner than
 * `againAfterMs` (ADR 129), with a quarter to spare for the draws' randomness. Fewer, and the cold
 * mix leans to browse pages each time the listings come round (a soak at 204 actions/s with 6,667
 * of them: every 5.5 minutes), which the soak would report as the server drifting.
 */
export function listingsNeeded(
  coldPerSecond: number,
  /** Of the cold URLs, the share that takes a listing. */
  listingShare: number,
  againAfterMs = COLD_AGAIN_AFTER_MS,
): number {
  return Math.ceil(coldPerSecond * listingShare * (againAfterMs / 1000) * 1.25);
}
