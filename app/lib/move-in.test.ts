import { describe, expect, it } from "vitest";
import { moveInCost } from "./move-in";

describe("moveInCost", () => {
  it("adds key money, the deposit and the months of rent asked in advance", () => {
    expect(moveInCost({ price: 25_000, keymoneyFee: 30_000, deposit: null, advanceMonths: 3 })).toEqual({
      total: 105_000,
      keyMoney: 30_000,
      deposit: 0,
      advanceMonths: 3,
      advance: 75_000,
    });
    expect(moveInCost({ price: 12_000, keymoneyFee: null, deposit: 10_000, advanceMonths: 1 })?.total).toBe(22_000);
  });

  it("is nothing to pay when no advance, key money or deposit is asked", () => {
    expect(moveInCost({ price: 9_000, keymoneyFee: null, deposit: null, advanceMonths: 0 })?.total).toBe(0);
  });

  it("is unknown while the advance is not stated, whatever else is", () => {
    expect(moveInCost({ price: 9_000, keymoneyFee: 50_000, deposit: 5_000, advanceMonths: null })).toBeNull();
  });
});
