import { Catalog, type Messages } from "./catalog";
import { DEFAULT_LOCALE, type Locale } from "./locales";

/**
 * The i18n instance of the page's language. In the browser there is one
 * language per page load (<html lang>; load-messages.ts fills it). On the server
 * it is English, and each other language has an instance of its own
 * (`i18nFor`), so requests in different languages never share one (ADR 033).
 */
export const i18n = new Catalog(DEFAULT_LOCALE);

const others = new Map<Locale, Catalog>();

/** The server's instance for a language (the browser has only the page's: `i18n`). */
export function i18nFor(locale: Locale): Catalog {
  if (locale === DEFAULT_LOCALE || typeof document !== "undefined") return i18n;
  let instance = others.get(locale);
  if (!instance) {
    instance = new Catalog(locale);
    others.set(locale, instance);
  }
  return instance;
}

/** Server and tests: an area's compiled messages in every language, each into its language's instance. */
export function loadAllLanguages(compiled: Record<string, Messages>): void {
  for (const [locale, messages] of Object.entries(compiled)) i18nFor(locale as Locale).load(locale, messages);
  // Development's browser gets every language inline: it shows the page's.
  if (typeof document !== "undefined") {
    const page = document.documentElement.lang || DEFAULT_LOCALE;
    if (page in compiled && i18n.locale !== page) i18n.activate(page);
  }
}
