// What every rate-limit store answers to (memory, the cluster's primary, Redis).
// Types only: the cluster's primary process loads the stores without the app's build.

/** The answer of a store: the key's count and when its window ends (ms since epoch). */
export type StoreCount = {
  count: number;
  resetAtMs: number;
  /** The hit was not counted because it would have passed `limit` (no key was created for it). */
  refused?: boolean;
};

/** Counts hits per key in fixed windows. Keys are opaque strings; values expire by themselves. */
export type RateLimitStore = {
  /**
   * Adds `by` to the key's window (0 only reads; a negative `by` gives hits back,
   * never below 0 and never creating a key). With `limit`, a hit that would take
   * the count past it is not counted and creates no key. Atomic per call.
   */
  increment(key: string, windowMs: number, nowMs: number, by: number, limit?: number): Promise<StoreCount>;
  reset(key: string): Promise<void>;
};
