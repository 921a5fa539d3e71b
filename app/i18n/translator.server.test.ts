import { describe, expect, it } from "vitest";
import { type Locale, translatorFor } from "./translator.server";
import "virtual:catalogue/report";

describe("translatorFor", () => {
  it("renders English today, the same words as t", () => {
    expect(translatorFor("en")("report.autoHide.reason", { count: 2 })).toBe(
      "Hidden automatically after reports from 2 people, until a moderator reviews it.",
    );
  });

  it("falls back to English for a language not served (a stale cookie, an old preference)", () => {
    expect(translatorFor("xx" as Locale)("report.autoHide.reason", { count: 1 })).toBe(
      "Hidden automatically after reports from 1 person, until a moderator reviews it.",
    );
  });
});
