import { createHash, randomBytes } from "node:crypto";

// No app imports here: the cluster's primary process loads this file with Node's
// type stripping, outside the app's build (through memory-store.server.ts).

/**
 * Counts per key in fixed memory, for keys the exact store has no room for
 * (ADR 102): a count-min sketch of `depth` rows of `width` counters. A key
 * adds to one counter in each row; its count is the smallest of them, which
 * is never below what was added for it (other keys can only push it up), so a
 * limit read from it may refuse a little early but never lets a key past.
 * Conservative update (only the counters at the smallest value grow) keeps
 * that excess small. Rows are picked with a keyed hash whose secret is made
 * per process: nobody can choose keys that land on someone else's counters.
 *
 * The windows are fixed and aligned to the clock (a window of an hour ends on
 * the hour): one sketch holds one window, and is cleared when the next begins.
 * Nothing is ever given back (a negative `by` does nothing): giving back could
 * take from another key sharing a counter.
 */
export type CountSketch = {
  /** The key's count in the window that holds `nowMs` (0 when never added). */
  estimate(key: string, nowMs: number): number;
  /** Adds `by` (≥ 0) to the key and answers its count after. */
  add(key: string, nowMs: number, by: number): number;
  /** When the window holding `nowMs` ends (ms since epoch). */
  resetAtMs(nowMs: number): number;
  /** Bytes of counters held, whatever the number of keys. */
  readonly bytes: number;
};

export function createCountSketch(options: {
  windowMs: number;
  depth?: number;
  width?: number;
  secret?: Buffer;
}): CountSketch {
  const { windowMs } = options;
  const depth = options.depth ?? 4;
  const width = options.width ?? 1 << 16;
  if (depth < 1 || depth > 8) throw new Error("a sketch has 1 to 8 rows");
  const secret = options.secret ?? randomBytes(32);
  const counters = new Uint32Array(depth * width);
  let window = Number.NaN;

  /** The counter of each row for a key: 4 bytes of a keyed SHA-256 per row. */
  function cells(key: string): number[] {
    const digest = createHash("sha256").update(secret).update(key).digest();
    return Array.from({ length: depth }, (_, row) => row * width + (digest.readUInt32LE(row * 4) % width));
  }
  /** Clears the counters when `nowMs` is in a later window than the one they hold. */
  function roll(nowMs: number) {
    const current = Math.floor(nowMs / windowMs);
    if (current === window) return;
    counters.fill(0);
    window = current;
  }
  const least = (at: readonly number[]) => Math.min(...at.map((i) => counters[i]));

  return {
    bytes: counters.byteLength,
    estimate(key, nowMs) {
      roll(nowMs);
      return least(cells(key));
    },
    add(key, nowMs, by) {
      roll(nowMs);
      const at = cells(key);
      const after = Math.min(least(at) + Math.max(0, by), 0xffff_ffff);
      for (const i of at) if (counters[i] < after) counters[i] = after;
      return after;
    },
    resetAtMs: (nowMs) => (Math.floor(nowMs / windowMs) + 1) * windowMs,
  };
}
