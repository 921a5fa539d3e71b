/**
 * Counts a page shows (matches per filter set, the home page's figures),
 * remembered per process and forgotten with the pages (ADR 096). Counting
 * reads up to 10,001 rows, the largest part of a browse page's SQLite time,
 * and the same filter set comes back on every page of its results and in
 * every order. A write that changes any listing forgets every count, as it
 * drops every list page; a count is also forgotten after `maxAgeMs`, because
 * listings leave the public site when they expire, without a write.
 */
export type CountMemo = {
  /** The remembered count under `key`, or `compute`'s, remembered unless a change came in meanwhile. */
  count(key: string, compute: () => Promise<number>): Promise<number>;
  /** Applies a page invalidation (app/cache/invalidation.server.ts): anything but a view count forgets every count. */
  forget(change: { all: boolean; listingIds: readonly number[] }): void;
  readonly size: number;
};

/** Counts every time: outside HTTP, for someone signed in (their pages are rendered fresh, ADR 012), and in tests. */
export const COUNT_EVERY_TIME: CountMemo = {
  count: (_key, compute) => compute(),
  forget() {},
  size: 0,
};

export type CountMemoOptions = {
  /** Well under the page cache's 5 minutes: a page rendered now never shows an older count than a cached page may. */
  maxAgeMs?: number;
  /** Past this many keys the memo starts again empty, so a flood of made-up filter sets costs memory only briefly. */
  maxEntries?: number;
  now?: () => number;
};

export function createCountMemo({
  maxAgeMs = 60_000,
  maxEntries = 20_000,
  now = Date.now,
}: CountMemoOptions = {}): CountMemo {
  const counts = new Map<string, { value: number; at: number }>();
  // Bumped by each change: a count begun before a change may have read the old rows, so it is not kept.
  let generation = 0;
  return {
    async count(key, compute) {
      const known = counts.get(key);
      if (known && now() - known.at < maxAgeMs) return known.value;
      const started = generation;
      const at = now();
      const value = await compute();
      if (started === generation) {
        if (counts.size >= maxEntries) counts.clear();
        counts.set(key, { value, at });
      }
      return value;
    },
    forget(change) {
      if (!change.all && change.listingIds.length === 0) return;
      generation++;
      counts.clear();
    },
    get size() {
      return counts.size;
    },
  };
}
