import { describe, expect, it } from "vitest";
import { t } from "./index";
import { inLocale } from "./request-locale.server";
import "virtual:catalogue/report";

describe("the request's language", () => {
  it("is what t speaks inside a request, through awaits and timers, and English outside", async () => {
    const key = "report.reasons.fake-listing.label" as const;
    const english = t(key);
    const [si, ta] = await Promise.all([
      inLocale("si", async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return t(key);
      }),
      inLocale("ta", async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return t(key);
      }),
    ]);
    expect(si).not.toBe(english);
    expect(ta).not.toBe(english);
    expect(si).not.toBe(ta);
    expect(t(key)).toBe(english);
  });
});
