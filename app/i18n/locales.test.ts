import { describe, expect, it } from "vitest";
import { localeOfPath, localeOrDefault, localePath, preferredLocale, withoutLocale } from "./locales";

describe("locales", () => {
  it("reads the language from the first segment only", () => {
    expect(localeOfPath("/")).toBe("en");
    expect(localeOfPath("/browse")).toBe("en");
    expect(localeOfPath("/si")).toBe("si");
    expect(localeOfPath("/si/browse")).toBe("si");
    expect(localeOfPath("/ta/listing/x")).toBe("ta");
    expect(localeOfPath("/sinhala")).toBe("en");
    expect(localeOfPath("/search/si")).toBe("en");
  });

  it("strips and adds the language prefix", () => {
    expect(withoutLocale("/si")).toBe("/");
    expect(withoutLocale("/si/browse")).toBe("/browse");
    expect(withoutLocale("/browse")).toBe("/browse");
    expect(localePath("si", "/")).toBe("/si");
    expect(localePath("si", "/?a=1")).toBe("/si?a=1");
    expect(localePath("ta", "/browse?search=x")).toBe("/ta/browse?search=x");
    expect(localePath("en", "/browse")).toBe("/browse");
  });
});

describe("preferredLocale", () => {
  it("takes the browser's first language that we have, by its base", () => {
    expect(preferredLocale(["si-LK", "en-US"])).toBe("si");
    expect(preferredLocale(["fr", "ta_IN", "si"])).toBe("ta");
    expect(preferredLocale(["en-GB"])).toBe("en");
    expect(preferredLocale(["fr", "de"])).toBeNull();
    expect(preferredLocale([])).toBeNull();
  });
});

describe("localeOrDefault", () => {
  it("keeps one of our languages and reads anything else as English", () => {
    expect(localeOrDefault("ta")).toBe("ta");
    for (const other of ["fr", "", null, undefined, 3, "SI"]) expect(localeOrDefault(other)).toBe("en");
  });
});
