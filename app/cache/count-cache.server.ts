/**
 * The numbers behind "N boarding places found", kept per filter set (issue 8).
 * Counting a common city or a university's faculty takes 8–13 ms at 100,000
 * listings, and every page and sort of the same filters has the same count,
 * so a process keeps what it counted. Honest like the page cache (ADR 012): a
 * change to a listing forgets every count at once in its own process and,
 * through the same page_invalidations poll, within a second in every other; a count being computed while
 * that happens is not kept; and a count lives at most a minute, for listings
 * that expire on their own. Off until the server turns it on, so code that
 * counts without the poll running (tests, scripts) always counts afresh.
 */
const MAX_ENTRIES = 5_000;
const MAX_AGE_MS = 60_000;

type Entry = { count: number; at: number };
const counts = new Map<string, Entry>();
let enabled = false;
let epoch = 0;

export function enableCountCache(): void {
  enabled = true;
}

/**
 * Forgets every count: called by a write in this process (at once) and by the
 * page_invalidations poll for writes in any process (after they commit).
 */
export function forgetCounts(): void {
  counts.clear();
  epoch += 1;
}

/** The count for `key`, from the cache or from `count()` (then kept, unless a change came meanwhile). */
export async function cachedCount(key: string, count: () => Promise<number>, now = Date.now()): Promise<number> {
  if (!enabled) return count();
  const found = counts.get(key);
  if (found && now - found.at < MAX_AGE_MS) {
    // Most recently used last, so the oldest is dropped first.
    counts.delete(key);
    counts.set(key, found);
    return found.count;
  }
  const started = epoch;
  const value = await count();
  if (epoch === started) {
    counts.delete(key);
    counts.set(key, { count: value, at: now });
    if (counts.size > MAX_ENTRIES) counts.delete(counts.keys().next().value as string);
  }
  return value;
}

/** For tests: off and empty again. */
export function resetCountCache(): void {
  enabled = false;
  counts.clear();
  epoch += 1;
}
