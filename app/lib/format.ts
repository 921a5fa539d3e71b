import { activeLocale } from "~/i18n";
import { groupDigits, roundHalfAway } from "~/i18n/digits";
import { INTL_LOCALES, type Locale } from "~/i18n/locales";

// One formatter per language, made on first use (docs/i18n.md: dates in the reader's language).
const numbers = new Map<Locale, Intl.NumberFormat>();
const dates = new Map<Locale, Intl.DateTimeFormat>();

/** '15,000': a whole amount with the language's thousands separators, in Latin digits. */
export function formatAmount(amount: number, locale: Locale = activeLocale()): string {
  // Without Intl in the browser's first render of a page (app/i18n/digits.ts says why).
  const grouped = groupDigits(roundHalfAway(amount), locale);
  if (grouped !== undefined) return grouped;
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
  return dateFormat(dates, locale, {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "Asia/Colombo",
  }).format(new Date(iso));
}

const dayDates = new Map<Locale, Intl.DateTimeFormat>();
const months = new Map<Locale, Intl.DateTimeFormat>();

/** '12 Nov 2026' in English (day first, as Sri Lanka writes it), the same date in Sinhala or Tamil. */
export function formatDayDate(iso: string, locale: Locale = activeLocale()): string {
  const options: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric", timeZone: COLOMBO };
  return dateFormat(dayDates, locale, options, "en-GB").format(new Date(iso));
}

const dayMonths = new Map<Locale, Intl.DateTimeFormat>();

/** '12 Nov' in English (a row of a table whose heading names the year), the same in Sinhala or Tamil. */
export function formatDayMonth(iso: string, locale: Locale = activeLocale()): string {
  return dateFormat(dayMonths, locale, { day: "numeric", month: "short", timeZone: COLOMBO }, "en-GB").format(
    new Date(iso),
  );
}

/** 'October 2026' in English, the same month in Sinhala or Tamil. */
export function formatMonthYear(iso: string, locale: Locale = activeLocale()): string {
  return dateFormat(months, locale, { month: "long", year: "numeric", timeZone: COLOMBO }, "en-GB").format(
    new Date(iso),
  );
}

const COLOMBO = "Asia/Colombo";
const clocks = new Map<Locale, Intl.DateTimeFormat>();

/** '10:00 PM' for '22:00' (a time of day, no date or zone), in the reader's language. */
export function formatClock(time: string, locale: Locale = activeLocale()): string {
  const [hours, minutes] = time.split(":").map(Number);
  const format = dateFormat(clocks, locale, {
    hour: "numeric",
    minute: "2-digit",
    timeZone: "UTC",
    numberingSystem: "latn",
  });
  return format.format(new Date(Date.UTC(2000, 0, 1, hours, minutes)));
}

/** One date formatter per language and use, made on first use ('en' as written in the US: 'Nov 22, 2026'). */
function dateFormat(
  cache: Map<Locale, Intl.DateTimeFormat>,
  locale: Locale,
  options: Intl.DateTimeFormatOptions,
  english = "en-US",
): Intl.DateTimeFormat {
  let format = cache.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale === "en" ? english : INTL_LOCALES[locale], options);
    cache.set(locale, format);
  }
  return format;
}
