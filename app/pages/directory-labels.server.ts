import { findCity, findUniversity } from "~/directory/universities";
import { type MessageKey, t } from "~/i18n";
import "virtual:catalogue/directory";

/**
 * Names from the university directory in the reader's language (issue 11). The
 * English name stays the value (filters, URLs, search); this is only what is
 * shown. A name the directory does not know is shown as it is.
 */
export function universityLabel(name: string): string {
  const university = findUniversity(name);
  return university ? t(`directory.universities.${university.id}` as MessageKey) : name;
}

/** A city by its code or English name, in the reader's language. */
export function cityLabel(codeOrName: string): string {
  const city = findCity(codeOrName);
  return city ? t(`directory.cities.${city.code}` as MessageKey) : codeOrName;
}
