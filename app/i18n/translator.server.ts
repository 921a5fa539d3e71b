import { type Translator, t } from "./index";

/**
 * The languages the site is served in, and so a request's `locale` (RequestInfo).
 * English only until issue 11 point 2 adds /si and /ta; catalogues for a language
 * may exist before it is served.
 */
export const SERVED_LOCALES = ["en"] as const;
export type Locale = (typeof SERVED_LOCALES)[number];

const TRANSLATORS: Record<Locale, Translator> = { en: t };

/**
 * The translator for one language, for text composed on the server for someone
 * who is not reading this page: emails, and later a notice in the recipient's
 * preferred language (ADR 028). A language not served falls back to English.
 */
export function translatorFor(locale: Locale): Translator {
  return TRANSLATORS[locale] ?? TRANSLATORS.en;
}
