import { type CountSketch, createCountSketch } from "./count-sketch.ts";
import type { RateLimitStore } from "./limit-store.ts";

// No app imports here (no "~/" paths), only files beside it by their .ts names: the cluster's
// primary process (server/cluster.ts) runs this file directly with Node's type stripping,
// outside the app's build.

/** Live windows one limit may hold in memory (about 150 bytes each). */
export const MAX_MEMORY_KEYS = 50_000;

export type MemoryStore = RateLimitStore & {
  /** Live and not yet swept windows, all limits together (tests). */
  readonly size: number;
  /** Windows held per limit (the part of the key before ":"), each at most `maxKeys`. */
  sizes(): ReadonlyMap<string, number>;
  /** Hits counted in a sketch because their limit was full, per limit, since the process started. */
  overflows(): ReadonlyMap<string, number>;
  readonly maxKeys: number;
};

/**
 * One process's counters, bounded per limit: keys are "name:…", and each name
 * holds at most `maxKeys` windows, so a flood of one kind (made-up visitors)
 * cannot crowd out another (logins). A full limit first sweeps windows that
 * have ended (at most once a second: a sweep reads every key); when none has,
 * a new key is counted in that limit's count-min sketch (ADR 102), in fixed
 * memory, rather than evicting a live window, which would hand an attacker a
 * fresh allowance (ADR 016), or refusing it, which let a flood of made-up
 * visitors stop everyone's views from counting. Keys already counting carry on.
 */
export function createMemoryStore(options: { maxKeys?: number } = {}): MemoryStore {
  const maxKeys = options.maxKeys ?? MAX_MEMORY_KEYS;
  const windows = new Map<string, { count: number; resetAtMs: number }>();
  const sizes = new Map<string, number>();
  const partitionOf = (key: string) => key.slice(0, Math.max(0, key.indexOf(":")));
  const sizeOf = (partition: string) => sizes.get(partition) ?? 0;
  function remove(key: string) {
    if (!windows.delete(key)) return;
    const partition = partitionOf(key);
    sizes.set(partition, sizeOf(partition) - 1);
  }
  /** Sketches by limit and window length (the growing delay's spacing keys have several). */
  const sketches = new Map<string, CountSketch>();
  const overflows = new Map<string, number>();
  const sketchId = (partition: string, windowMs: number) => `${partition} ${windowMs}`;
  function sketchOf(partition: string, windowMs: number): CountSketch {
    const id = sketchId(partition, windowMs);
    const sketch = sketches.get(id) ?? createCountSketch({ windowMs });
    sketches.set(id, sketch);
    return sketch;
  }
  /** A key its full limit has no room for: counted in the sketch, refused when it would pass `limit`. */
  function overflow(key: string, partition: string, windowMs: number, nowMs: number, by: number, limit?: number) {
    const sketch = sketchOf(partition, windowMs);
    const resetAtMs = sketch.resetAtMs(nowMs);
    const count = sketch.estimate(key, nowMs);
    if (by <= 0) return { count, resetAtMs };
    if (limit !== undefined && count + by > limit) return { count, resetAtMs, refused: true };
    overflows.set(partition, (overflows.get(partition) ?? 0) + by);
    return { count: sketch.add(key, nowMs, by), resetAtMs };
  }
  let lastSweepMs = Number.NEGATIVE_INFINITY;
  function hasRoom(partition: string, nowMs: number): boolean {
    if (sizeOf(partition) < maxKeys) return true;
    if (nowMs - lastSweepMs >= 1000) {
      lastSweepMs = nowMs;
      for (const [key, w] of windows) if (w.resetAtMs <= nowMs) remove(key);
    }
    return sizeOf(partition) < maxKeys;
  }
  return {
    get size() {
      return windows.size;
    },
    sizes: () => new Map([...sizes].filter(([, n]) => n > 0)),
    overflows: () => new Map(overflows),
    maxKeys,
    async increment(key, windowMs, nowMs, by, limit) {
      let w = windows.get(key);
      if (w && w.resetAtMs <= nowMs) {
        remove(key);
        w = undefined;
      }
      if (!w) {
        const resetAtMs = nowMs + windowMs;
        const partition = partitionOf(key);
        if (!hasRoom(partition, nowMs)) return overflow(key, partition, windowMs, nowMs, by, limit);
        // A key the sketch counted while the limit was full keeps that count (never a fresh allowance).
        const count = sketches.get(sketchId(partition, windowMs))?.estimate(key, nowMs) ?? 0;
        if (by <= 0) return { count, resetAtMs };
        if (limit !== undefined && count + by > limit) return { count, resetAtMs, refused: true };
        w = { count, resetAtMs };
        windows.set(key, w);
        sizes.set(partition, sizeOf(partition) + 1);
      } else if (limit !== undefined && by > 0 && w.count + by > limit) {
        return { count: w.count, resetAtMs: w.resetAtMs, refused: true };
      }
      w.count = Math.max(0, w.count + by);
      return { count: w.count, resetAtMs: w.resetAtMs };
    },
    async reset(key) {
      remove(key);
    },
  };
}

/**
 * The store's sizes in Prometheus' text format, for the cluster's primary to add to the
 * workers' /metrics (it keeps the machine's counters, ADR 040, and has no registry of its own).
 */
export function memoryStoreMetrics(store: MemoryStore): string {
  const lines = [
    "# HELP bodima_rate_limit_keys Rate-limit windows held in memory, by limit",
    "# TYPE bodima_rate_limit_keys gauge",
    ...[...store.sizes()].map(([limit, n]) => `bodima_rate_limit_keys{limit="${limit}"} ${n}`),
    "# HELP bodima_rate_limit_overflow_total Hits counted in a limit's fixed-size sketch because it held maxKeys windows",
    "# TYPE bodima_rate_limit_overflow_total counter",
    ...[...store.overflows()].map(([limit, n]) => `bodima_rate_limit_overflow_total{limit="${limit}"} ${n}`),
    "# HELP bodima_rate_limit_max_keys Windows one limit may hold in memory",
    "# TYPE bodima_rate_limit_max_keys gauge",
    `bodima_rate_limit_max_keys ${store.maxKeys}`,
  ];
  return `${lines.join("\n")}\n`;
}
