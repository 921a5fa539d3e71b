/**
 * The site's languages and where each lives (ADR 033). English keeps
 * the spec's URLs; Sinhala and Tamil live under /si and /ta. Shared by the
 * server and the browser: pure functions of a path.
 */
export const LOCALES = ["en", "si", "ta"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** Each language in its own script, for the language switcher. */
export const LANGUAGE_NAMES: Record<Locale, string> = { en: "English", si: "සිංහල", ta: "தமிழ்" };

/**
 * The language a browser asks for first among ours, from navigator.languages
 * or Accept-Language order ("si-LK" counts as "si"), or null.
 */
export function preferredLocale(languages: readonly string[]): Locale | null {
  for (const tag of languages) {
    const base = tag.toLowerCase().split(/[-_]/)[0];
    if (isLocale(base)) return base;
  }
  return null;
}

/** The language tag for Intl (dates, numbers) and hreflang. */
export const INTL_LOCALES: Record<Locale, string> = { en: "en-LK", si: "si-LK", ta: "ta-LK" };

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** A stored or sent language, or English when it is none of ours (an old preference, a stale value). */
export function localeOrDefault(value: unknown): Locale {
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

const PREFIXED = /^\/(si|ta)(?=\/|$)/;

/** The language of a URL path: "/si/browse" is Sinhala, "/browse" English. */
export function localeOfPath(pathname: string): Locale {
  const match = PREFIXED.exec(pathname);
  return match ? (match[1] as Locale) : DEFAULT_LOCALE;
}

/** The path without its language: "/si/browse" -> "/browse", "/ta" -> "/". */
export function withoutLocale(pathname: string): string {
  const stripped = pathname.replace(PREFIXED, "");
  return stripped === "" ? "/" : stripped;
}

/** The same page in another language: ("si", "/browse?x=1") -> "/si/browse?x=1"; ("en", "/") -> "/". */
export function localePath(locale: Locale, path: string): string {
  if (locale === DEFAULT_LOCALE) return path;
  return path === "/" || path.startsWith("/?") || path.startsWith("/#")
    ? `/${locale}${path.slice(1)}`
    : `/${locale}${path}`;
}

/** React Router's basename for a language: where its routes start. */
export function basenameOf(locale: Locale): string {
  return locale === DEFAULT_LOCALE ? "/" : `/${locale}`;
}

/**
 * The language switcher's link to another language: through `/language/{lang}`,
 * which remembers the choice (ADR 036) and opens `path` (a path inside the
 * page's language, with its query) in that language.
 */
export function languageSwitchHref(locale: Locale, path: string): string {
  return `/language/${locale}?next=${encodeURIComponent(path)}`;
}
