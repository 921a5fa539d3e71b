import { type Translator, translatorOf } from "./index";
import { LOCALES, type Locale, localeOrDefault } from "./locales";

/** The languages the site is served in: /si and /ta beside English (ADR 033). */
export const SERVED_LOCALES = LOCALES;
export type { Locale };

/**
 * The translator for one language, for text composed on the server for someone
 * who is not reading this page: emails in the recipient's language (ADR 028), from a stored
 * `users.locale` or the request's.
 */
export function translatorFor(locale: string): Translator {
  return translatorOf(localeOrDefault(locale));
}
