import { describe, expect, it } from "vitest";
import { createCountSketch } from "./count-sketch";

describe("count sketch (ADR 102)", () => {
  const HOUR = 60 * 60 * 1000;
  const start = 1_000 * HOUR;

  it("counts each key, and never below what was added for it, however many keys share it", () => {
    const sketch = createCountSketch({ windowMs: HOUR, width: 64 });
    const added = new Map<string, number>();
    for (let i = 0; i < 5_000; i++) {
      const key = `visitor=${i % 700}`;
      sketch.add(key, start + i, 1);
      added.set(key, (added.get(key) ?? 0) + 1);
    }
    // 700 keys on 64 counters a row: far too many to be exact, never too few.
    for (const [key, n] of added) expect(sketch.estimate(key, start + 6_000)).toBeGreaterThanOrEqual(n);
    expect(sketch.bytes).toBe(4 * 64 * 4);
  });

  it("is exact for a few keys in a wide sketch, and gives nothing back", () => {
    const sketch = createCountSketch({ windowMs: HOUR });
    expect(sketch.add("a", start, 1)).toBe(1);
    expect(sketch.add("a", start, 2)).toBe(3);
    expect(sketch.add("a", start, -5)).toBe(3);
    expect(sketch.estimate("b", start)).toBe(0);
  });

  it("holds one window aligned to the clock and starts again in the next", () => {
    const sketch = createCountSketch({ windowMs: HOUR });
    sketch.add("a", start + HOUR - 1, 7);
    expect(sketch.resetAtMs(start + 5)).toBe(start + HOUR);
    expect(sketch.estimate("a", start + HOUR - 1)).toBe(7);
    expect(sketch.estimate("a", start + HOUR)).toBe(0);
  });

  it("places keys with a secret of its own: another sketch's collisions say nothing about this one", () => {
    const cellsOf = (secret: Buffer) => {
      const sketch = createCountSketch({ windowMs: HOUR, width: 8, depth: 1, secret });
      sketch.add("victim", start, 1);
      return Array.from({ length: 40 }, (_, i) => sketch.estimate(`guess-${i}`, start)).join("");
    };
    expect(cellsOf(Buffer.alloc(32, 1))).toBe(cellsOf(Buffer.alloc(32, 1)));
    expect(cellsOf(Buffer.alloc(32, 1))).not.toBe(cellsOf(Buffer.alloc(32, 2)));
  });
});
