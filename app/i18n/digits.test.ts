import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatAmount } from "~/lib/format";
import { type CompiledMessage, render } from "./catalog";
import { groupDigits } from "./digits";
import { INTL_LOCALES, LOCALES } from "./locales";

// What the pages showed before groupDigits replaced Intl in them: it must write the same text, or the
// browser's render would differ from the server's and amounts would change under a reader's eyes.
const intlAmount = (locale: (typeof LOCALES)[number]) =>
  new Intl.NumberFormat(INTL_LOCALES[locale], { maximumFractionDigits: 0, numberingSystem: "latn" });

describe("groupDigits", () => {
  it("groups by thousands, and in Tamil by lakhs and crores after the first thousand", () => {
    expect(groupDigits(1_234_567, "en")).toBe("1,234,567");
    expect(groupDigits(1_234_567, "si")).toBe("1,234,567");
    expect(groupDigits(1_234_567, "ta")).toBe("12,34,567");
    expect(groupDigits(100_000, "ta-LK")).toBe("1,00,000");
    expect(groupDigits(999, "ta")).toBe("999");
    expect(groupDigits(-15_000, "en")).toBe("-15,000");
  });

  it("leaves what is not a safe whole number to Intl", () => {
    for (const value of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])
      expect(groupDigits(value, "en")).toBe(undefined);
  });

  it("writes every amount as Intl.NumberFormat does, in every language", () => {
    const amounts = fc.oneof(
      fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
      fc.maxSafeInteger(),
      fc.double({ min: -1e15, max: 1e15, noNaN: true }),
      fc.constantFrom(0, -0, 0.5, -0.5, 2.5, -2.5, 999.5, 99_999.5, -0.4),
    );
    fc.assert(
      fc.property(amounts, fc.constantFrom(...LOCALES), (amount, locale) => {
        expect(formatAmount(amount, locale)).toBe(intlAmount(locale).format(amount));
      }),
      { numRuns: 3000 },
    );
  });

  it("writes a plural's number as Intl.NumberFormat does, in every language", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.double({ noNaN: true })), fc.constantFrom(...LOCALES), (count, locale) => {
        const message: CompiledMessage = [["n", "plural", { other: ["#", " rooms"] }]];
        expect(render(message, { n: count }, locale)).toBe(`${new Intl.NumberFormat(locale).format(count)} rooms`);
      }),
      { numRuns: 2000 },
    );
  });
});
