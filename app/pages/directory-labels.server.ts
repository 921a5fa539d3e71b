import { CITIES, DEFAULT_FACULTY, findCity, findUniversity, UNIVERSITIES } from "~/directory/universities";
import { type MessageKey, t } from "~/i18n";
import type { Choice } from "~/schemas/browse-view";
import "virtual:catalogue/directory";

/**
 * Names from the university directory in the reader's language (docs/i18n.md). The
 * English name stays the value (filters, URLs, search); this is only what is
 * shown. A name the directory does not know is shown as it is.
 */
export function universityLabel(name: string): string {
  const university = findUniversity(name);
  return university ? t(`directory.universities.${university.id}` as MessageKey) : name;
}

/** Every university of the directory to choose from: the English name, shown in the reader's language. */
export function universityChoices(): Choice[] {
  return UNIVERSITIES.map((u) => ({ value: u.name, label: t(`directory.universities.${u.id}` as MessageKey) }));
}

/** Every city of the directory to choose from: the English name, shown in the reader's language. */
export function cityChoices(): Choice[] {
  return CITIES.map((c) => ({ value: c.name, label: t(`directory.cities.${c.code}` as MessageKey) }));
}

/** A city by its code or English name, in the reader's language. */
export function cityLabel(codeOrName: string): string {
  const city = findCity(codeOrName);
  return city ? t(`directory.cities.${city.code}` as MessageKey) : codeOrName;
}

/**
 * A faculty by its English name (the stored value), in the reader's language:
 * every university's main campus has one name; the other faculties have their own.
 */
export function facultyLabel(name: string): string {
  if (name === DEFAULT_FACULTY) return t("directory.faculties.main");
  for (const university of UNIVERSITIES) {
    const faculty = university.faculties.find((f) => f.name === name);
    if (faculty) return t(`directory.faculties.${faculty.id}` as MessageKey);
  }
  return name;
}
