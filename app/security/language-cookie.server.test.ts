import { describe, expect, it } from "vitest";
import { REDIRECT_BYPASSES } from "../../tests/redirect-bypasses";
import {
  chosenLanguage,
  languageCookieHeader,
  languageSwitchLocation,
  languageSwitchTarget,
  rememberedLanguagePath,
  samePageInLanguage,
} from "./language-cookie.server";

const SITE = "https://bodima.lk";

describe("the remembered language (ADR 036)", () => {
  it("reads only our languages from the cookie", () => {
    expect(chosenLanguage("a=1; bodima_lang=ta")).toBe("ta");
    expect(chosenLanguage("bodima_lang=fr")).toBeNull();
    expect(chosenLanguage("bodima_lang=")).toBeNull();
    expect(chosenLanguage(null)).toBeNull();
  });

  it("is a year-long, HttpOnly, SameSite=Lax cookie, Secure on https", () => {
    expect(languageCookieHeader("si", { secure: true })).toBe(
      "bodima_lang=si; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax; Secure",
    );
    expect(languageCookieHeader("en", { secure: false })).not.toContain("Secure");
  });

  it("sends the switcher to the same page in the chosen language, and never to another site", () => {
    expect(languageSwitchTarget("si", "/browse?city=kandy", SITE)).toBe("/si/browse?city=kandy");
    expect(languageSwitchTarget("ta", "/si/listing/x-12", SITE)).toBe("/ta/listing/x-12");
    expect(languageSwitchTarget("en", "/ta/about", SITE)).toBe("/about");
    expect(languageSwitchTarget("si", "/", SITE)).toBe("/si");
    for (const attack of ["//evil.example", "https://evil.example/", "/\\evil.example", "/%5Cevil.example", null, ""])
      expect(languageSwitchTarget("si", attack, SITE), String(attack)).toBe("/si");
  });

  it("never sends the switcher to another site once the language prefix is dropped (ADR 062)", () => {
    // The reported attack: "/si//evil.example/phish" passed the check, then lost its "/si".
    expect(languageSwitchLocation("en", "/si//evil.example/phish", SITE)).toBe(`${SITE}/`);
    expect(languageSwitchLocation("en", "/ta//evil.example", SITE)).toBe(`${SITE}/`);
    expect(languageSwitchLocation("ta", "/si//evil.example", SITE)).toBe(`${SITE}/ta`);
    for (const locale of ["en", "si", "ta"] as const)
      for (const attack of REDIRECT_BYPASSES) {
        const location = new URL(languageSwitchLocation(locale, attack, SITE));
        expect(location.origin, `${locale} ${JSON.stringify(attack)}`).toBe(SITE);
        expect(location.pathname, `${locale} ${JSON.stringify(attack)}`).not.toMatch(
          /^\/(?:(?:si|ta)\/)*(?:[/\\]|%2f|%5c)/i,
        );
      }
  });

  it("moves an owner page to the remembered language, and leaves it when it already matches", () => {
    const at = (path: string) => new URL(path, SITE);
    expect(rememberedLanguagePath(at("/dashboard/settings?x=1"), "bodima_lang=si")).toBe("/si/dashboard/settings?x=1");
    expect(rememberedLanguagePath(at("/ta/dashboard"), "bodima_lang=en")).toBe("/dashboard");
    expect(rememberedLanguagePath(at("/si/dashboard"), "bodima_lang=si")).toBeNull();
    expect(rememberedLanguagePath(at("/dashboard"), "bodima_lang=xx")).toBeNull();
    expect(rememberedLanguagePath(at("/dashboard"), null)).toBeNull();
    // React Router's data request for a client-side navigation names the page it is for.
    expect(rememberedLanguagePath(at("/dashboard.data?_routes=routes%2Fdashboard"), "bodima_lang=ta")).toBe(
      "/ta/dashboard",
    );
  });

  it("moves an owner page to the account's language the same way, data requests included", () => {
    const at = (path: string) => new URL(path, SITE);
    expect(samePageInLanguage(at("/dashboard/settings?done=profile"), "ta")).toBe(
      "/ta/dashboard/settings?done=profile",
    );
    expect(samePageInLanguage(at("/si/admin/audit"), "en")).toBe("/admin/audit");
    expect(samePageInLanguage(at("/ta/dashboard"), "ta")).toBeNull();
    expect(samePageInLanguage(at("/dashboard.data?_routes=routes%2Fdashboard"), "si")).toBe("/si/dashboard");
  });
});
