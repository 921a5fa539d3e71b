import { describe, expect, it } from "vitest";
import { formatLkr, formatShortDate } from "./format";

describe("formats in each language", () => {
  it("writes prices with LKR and Latin digits in every language", () => {
    expect(formatLkr(15000)).toBe("LKR 15,000");
    expect(formatLkr(15000, "si")).toBe("LKR 15,000");
    expect(formatLkr(15000, "ta")).toBe("LKR 15,000");
  });

  it("writes dates in the reader's language, in Sri Lanka's time zone", () => {
    const iso = "2026-11-21T20:00:00Z"; // 22 November in Colombo
    expect(formatShortDate(iso)).toBe("Nov 22, 2026");
    expect(formatShortDate(iso, "si")).not.toMatch(/Nov/);
    expect(formatShortDate(iso, "si")).toContain("22");
    expect(formatShortDate(iso, "ta")).not.toMatch(/Nov/);
    expect(formatShortDate(iso, "ta")).toContain("22");
  });
});
