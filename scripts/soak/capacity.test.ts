import { describe, expect, it } from "vitest";
import { type CapacityStep, capacityOf, capacityRates } from "./capacity.ts";

const step = (rate: number, p99Ms: number, errors = 0): CapacityStep => ({ rate, p99Ms, errors });

describe("soak capacity (ADR 103)", () => {
  it("tries rates growing by a quarter from 20 actions a second", () => {
    expect(capacityRates().slice(0, 6)).toEqual([20, 25, 31, 39, 49, 61]);
    expect(capacityRates().at(-1)).toBeLessThanOrEqual(2_000);
  });

  it("is the highest rate whose pages were answered within the budget, not the rate past saturation", () => {
    expect(capacityOf([step(20, 90), step(25, 120), step(31, 400), step(39, 1_616)])).toEqual({
      rate: 31,
      within: true,
    });
  });

  it("does not count a step where a request failed", () => {
    expect(capacityOf([step(20, 120), step(25, 400, 3)]).rate).toBe(20);
  });

  it("falls back to the first step when none was within the budget, and says so", () => {
    expect(capacityOf([step(20, 2_500), step(25, 4_000)])).toEqual({ rate: 20, within: false });
    expect(() => capacityOf([])).toThrow();
  });
});
