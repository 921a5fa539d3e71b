import { describe, expect, it } from "vitest";
import { createRandom } from "../../app/seed/random.ts";
import { createZipfSampler } from "./zipf.ts";

function frequencies(n: number, draws: number, s = 1): number[] {
  const random = createRandom(42);
  const sample = createZipfSampler(n, s, () => random.next());
  const counts = new Array<number>(n).fill(0);
  for (let i = 0; i < draws; i++) counts[sample()]++;
  return counts.map((c) => c / draws);
}

describe("createZipfSampler", () => {
  it("draws rank k about 1/k as often as rank 1, every index in range", () => {
    const n = 5_000;
    const f = frequencies(n, 200_000);
    // H(5000) ≈ 9.09: rank 1 gets about 11% of draws, rank 2 half that, rank 10 a tenth.
    expect(f[0]).toBeCloseTo(1 / 9.094, 2);
    expect(f[1] / f[0]).toBeCloseTo(0.5, 1);
    expect(f[9] / f[0]).toBeCloseTo(0.1, 1);
    expect(f.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
  });

  it("has a long tail: the less popular half still gets some requests", () => {
    const f = frequencies(5_000, 200_000);
    const tail = f.slice(2_500).reduce((a, b) => a + b, 0);
    expect(tail).toBeGreaterThan(0.05);
    expect(tail).toBeLessThan(0.1);
  });

  it("is uniform with s = 0 and always 0 for one item", () => {
    const f = frequencies(4, 40_000, 0);
    for (const share of f) expect(share).toBeCloseTo(0.25, 1);
    const sample = createZipfSampler(1, 1, Math.random);
    expect(sample()).toBe(0);
  });

  it("refuses an empty list", () => {
    expect(() => createZipfSampler(0, 1, Math.random)).toThrow();
  });
});
