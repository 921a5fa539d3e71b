import { activeLocale } from "~/i18n";
import { INTL_LOCALES, type Locale } from "~/i18n/locales";

// One formatter per language, made on first use (issue 11: dates in the reader's language).
const numbers = new Map<Locale, Intl.NumberFormat>();
const dates = new Map<Locale, Intl.DateTimeFormat>();

/** '15,000': a whole amount with the language's thousands separators, in Latin digits. */
export function formatAmount(amount: number, locale: Locale = activeLocale()): string {
  let format = numbers.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(INTL_LOCALES[locale], { maximumFractionDigits: 0, numberingSystem: "latn" });
    numbers.set(locale, format);
  }
  return format.format(amount);
}

/** 'LKR 15,000': the currency before the number, with thousands separators; 'LKR' in every language. */
export function formatLkr(amount: number, locale: Locale = activeLocale()): string {
  return `LKR ${formatAmount(amount, locale)}`;
}

/** 'Nov 22, 2026' in English, the same date in Sinhala or Tamil, in Sri Lanka's time zone. */
export function formatShortDate(iso: string, locale: Locale = activeLocale()): string {
  let format = dates.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale === "en" ? "en-US" : INTL_LOCALES[locale], {
      month: "short",
      day: "numeric",
      year: "numeric",
      timeZone: "Asia/Colombo",
    });
    dates.set(locale, format);
  }
  return format.format(new Date(iso));
}
