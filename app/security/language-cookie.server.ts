import { isLocale, type Locale, localeOfPath, localePath, withoutLocale } from "~/i18n/locales";
import { safeRedirect } from "~/lib/safe-redirect";
import { readCookie } from "./visitor-id.server";

/**
 * The reader's language choice (ADR 036): the language
 * switcher goes through `/language/{lang}?next=…`, which remembers the choice
 * in this cookie and sends the reader to the page in that language. Public
 * pages never read it (their URL says their language, and cached pages are the
 * same for everyone); the owner and moderator areas do, so `/dashboard` opens
 * in the chosen language.
 */
export const LANGUAGE_COOKIE = "bodima_lang";
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The language a request's cookie remembers, or null (none, or not one of ours). */
export function chosenLanguage(cookieHeader: string | null | undefined): Locale | null {
  const value = readCookie(cookieHeader, LANGUAGE_COOKIE);
  return isLocale(value) ? value : null;
}

export function languageCookieHeader(locale: Locale, options: { secure: boolean }): string {
  const parts = [`${LANGUAGE_COOKIE}=${locale}`, "Path=/", `Max-Age=${ONE_YEAR_SECONDS}`, "HttpOnly", "SameSite=Lax"];
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

/**
 * Where the switcher sends a reader: `next` (a path inside the page's language,
 * from a link anyone can write) in the chosen language. Only a path of our own
 * survives (`safeRedirect`), checked again after the language is swapped, as
 * every rewritten path is (ADR 062); anything else is the home page.
 */
export function languageSwitchTarget(locale: Locale, next: string | null, siteUrl: string): string {
  const home = localePath(locale, "/");
  const path = safeRedirect(next, "/", siteUrl);
  return safeRedirect(localePath(locale, withoutLocale(path)), home, siteUrl);
}

/**
 * The switcher's Location: absolute, so React Router cannot put the basename of
 * a link followed from a Sinhala or Tamil page (/si/language/ta) before it, and
 * on SITE_URL, never on the request's Host header, which the client writes (ADR 062).
 */
export function languageSwitchLocation(locale: Locale, next: string | null, siteUrl: string): string {
  return new URL(languageSwitchTarget(locale, next, siteUrl), siteUrl).href;
}

/**
 * The same owner or moderator page in the remembered language, when the URL
 * names another one (English by having no prefix); null when it already matches
 * or nothing is remembered.
 */
export function rememberedLanguagePath(url: URL, cookieHeader: string | null | undefined): string | null {
  const chosen = chosenLanguage(cookieHeader);
  return chosen ? samePageInLanguage(url, chosen) : null;
}

/**
 * The same page in `locale`, or null when the URL already names it. A client-side
 * navigation asks for /dashboard.data?_routes=…: the page is /dashboard.
 */
export function samePageInLanguage(url: URL, locale: Locale): string | null {
  if (locale === localeOfPath(url.pathname)) return null;
  const search = new URLSearchParams(url.search);
  search.delete("_routes");
  const query = search.size > 0 ? `?${search}` : "";
  return localePath(locale, withoutLocale(url.pathname.replace(/\.data$/, "")) + query);
}
