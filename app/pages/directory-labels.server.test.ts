import { describe, expect, it } from "vitest";
import { CITIES, DEFAULT_FACULTY, UNIVERSITIES } from "~/directory/universities";
import { inLocale } from "~/i18n/request-locale.server";
import { cityLabel, facultyLabel, universityLabel } from "./directory-labels.server";

/** `label` keeps `name` in English and gives it a Sinhala and a Tamil name of its own. */
function expectTranslated(label: (name: string) => string, name: string) {
  expect(label(name)).toBe(name);
  const si = inLocale("si", () => label(name));
  const ta = inLocale("ta", () => label(name));
  expect(si, name).not.toBe(name);
  expect(ta, name).not.toBe(name);
  expect(si, name).not.toBe(ta);
}

describe("directory names in the reader's language", () => {
  it("names every university and city in Sinhala and Tamil, and keeps English in English", () => {
    for (const university of UNIVERSITIES) expectTranslated(universityLabel, university.name);
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

  it("names every faculty, and the main campus, in Sinhala and Tamil, and keeps English in English", () => {
    for (const faculty of UNIVERSITIES.flatMap((u) => u.faculties)) expectTranslated(facultyLabel, faculty.name);
    expect(inLocale("si", () => facultyLabel(DEFAULT_FACULTY))).toBe("ප්‍රධාන සරසවි භූමිය");
    expect(inLocale("ta", () => facultyLabel("Faculty of Medicine Ragama"))).toBe("ராகம மருத்துவ பீடம்");
    expect(inLocale("ta", () => facultyLabel("Faculty of Dance"))).toBe("Faculty of Dance");
  });

  it("shows a name the directory does not know as it was written", () => {
    expect(inLocale("si", () => universityLabel("Some Private Campus"))).toBe("Some Private Campus");
    expect(inLocale("ta", () => cityLabel("Nowhere"))).toBe("Nowhere");
  });
});
