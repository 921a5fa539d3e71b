import { describe, expect, it } from "vitest";
import { inLocale } from "~/i18n/request-locale.server";
import { formatAmount, formatLkr } from "~/lib/format";
import { moveInLine } from "./move-in.server";

const terms = { price: 25_000, keymoneyFee: 30_000, deposit: null, advanceMonths: 3 };

describe("moveInLine", () => {
  it("writes the issue's line: the total, then each part", () => {
    expect(moveInLine(terms)).toBe("Move-in cost: LKR 105,000 (key money 30,000 + 3 months' rent 75,000)");
  });

  it("names a deposit and a single month, and leaves out what is not asked", () => {
    expect(moveInLine({ price: 12_000, keymoneyFee: null, deposit: 5_000, advanceMonths: 1 })).toBe(
      "Move-in cost: LKR 17,000 (deposit 5,000 + 1 month's rent 12,000)",
    );
    expect(moveInLine({ price: 12_000, keymoneyFee: 12_000, deposit: null, advanceMonths: 0 })).toBe(
      "Move-in cost: LKR 12,000 (key money 12,000)",
    );
  });

  it("says plainly when nothing is asked before moving in", () => {
    expect(moveInLine({ price: 9_000, keymoneyFee: null, deposit: null, advanceMonths: 0 })).toBe(
      "Move-in cost: none (no key money, deposit or advance)",
    );
  });

  it("shows nothing while the advance is not stated", () => {
    expect(moveInLine({ ...terms, advanceMonths: null })).toBeNull();
  });

  it("is written in Sinhala and Tamil too, with the amounts", () => {
    const si = inLocale("si", () => moveInLine(terms));
    const ta = inLocale("ta", () => moveInLine(terms));
    for (const [locale, line] of [
      ["si", si],
      ["ta", ta],
    ] as const) {
      // Each language groups the digits its own way (Tamil: 1,05,000).
      const amounts = inLocale(locale, () => [formatLkr(105_000), formatAmount(30_000), formatAmount(75_000)]);
      for (const amount of amounts) expect(line).toContain(amount);
      expect(line).not.toMatch(/[{}]|Move-in/);
    }
    expect(si).toContain("මාස 3ක කුලිය");
    expect(ta).toContain("3 மாத வாடகை");
  });
});
