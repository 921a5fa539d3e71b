import { describe, expect, it } from "vitest";
import { type Locale, translatorFor } from "./translator.server";
import "virtual:catalogue/report";

describe("translatorFor", () => {
  it("renders each served language from its own catalogue, with its plural forms", () => {
    expect(translatorFor("si")("report.autoHide.reason", { count: 2 })).toBe(
      "2 දෙනෙකුගේ වාර්තා නිසා, අධීක්ෂකවරයෙකු සලකා බලන තෙක් ස්වයංක්‍රීයව සඟවා ඇත.",
    );
    expect(translatorFor("ta")("report.autoHide.reason", { count: 1 })).toBe(
      "1 நபரின் முறைப்பாட்டைத் தொடர்ந்து, கண்காணிப்பாளர் பரிசீலிக்கும் வரை தானாக மறைக்கப்பட்டுள்ளது.",
    );
  });

  it("renders English, the same words as t", () => {
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
