import { describe, expect, it } from "vitest";
import { CITIES, UNIVERSITIES } from "~/directory/universities";
import { inLocale } from "~/i18n/request-locale.server";
import { cityLabel, universityLabel } from "./directory-labels.server";

describe("directory names in the reader's language", () => {
  it("names every university and city in Sinhala and Tamil, and keeps English in English", () => {
    for (const university of UNIVERSITIES) {
      expect(universityLabel(university.name)).toBe(university.name);
      const si = inLocale("si", () => universityLabel(university.name));
      const ta = inLocale("ta", () => universityLabel(university.name));
      expect(si, university.id).not.toBe(university.name);
      expect(ta, university.id).not.toBe(university.name);
      expect(si).not.toBe(ta);
    }
    for (const city of CITIES) {
      expect(cityLabel(city.code)).toBe(city.name);
      expect(
        inLocale("si", () => cityLabel(city.name)),
        city.code,
      ).not.toBe(city.name);
      expect(
        inLocale("ta", () => cityLabel(city.code)),
        city.code,
      ).not.toBe(city.name);
    }
    expect(inLocale("si", () => universityLabel("University of Moratuwa"))).toBe("මොරටුව විශ්වවිද්‍යාලය");
    expect(inLocale("ta", () => cityLabel("jaffna"))).toBe("யாழ்ப்பாணம்");
  });

  it("shows a name the directory does not know as it was written", () => {
    expect(inLocale("si", () => universityLabel("Some Private Campus"))).toBe("Some Private Campus");
    expect(inLocale("ta", () => cityLabel("Nowhere"))).toBe("Nowhere");
  });
});
