import { describe, expect, it } from "vitest";
import { type CapacityStep, capacityOf, capacityRates } from "./capacity.ts";

const step = (rate: number, p99Ms: number, errors = 0): CapacityStep => ({ rate, p99Ms, errors });

describe("soak capacity (ADRs 103 and 116)", () => {
  it("tries rates growing by a quarter from 20 actions a second", () => {
    expect(capacityRates().slice(0, 6)).toEqual([20, 25, 31, 39, 49, 61]);
    expect(capacityRates().at(-1)).toBeLessThanOrEqual(2_000);
  });

  it("is the highest rate whose pages were answered within the budget, not the rate past saturation", () => {
    expect(capacityOf([step(20, 90), step(25, 120), step(31, 240), step(39, 1_616)])).toEqual({
      rate: 31,
      within: true,
    });
  });

  it("stops at a page budget of 250 ms: a p99 of 750 ms is a queue already growing, not capacity", () => {
    // Measured 2026-11-30 on PostgreSQL: 149/s p99 163 ms, 186/s 359 ms, 233/s 748 ms.
    expect(capacityOf([step(149, 163), step(186, 359), step(233, 748)])).toEqual({ rate: 149, within: true });
  });

  it("does not count a step where a request failed", () => {
    expect(capacityOf([step(20, 120), step(25, 400, 3)]).rate).toBe(20);
  });

  it("falls back to the first step when none was within the budget, and says so", () => {
    expect(capacityOf([step(20, 300), step(25, 4_000)])).toEqual({ rate: 20, within: false });
    expect(() => capacityOf([])).toThrow();
  });
});
