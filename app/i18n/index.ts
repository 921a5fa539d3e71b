import "virtual:catalogue/common";
import { createContext, useContext } from "react";
import { i18n, i18nFor } from "./instance";
import type { MessageKey } from "./keys.generated";
import { DEFAULT_LOCALE, type Locale, localePath } from "./locales";

/**
 * All UI text comes from message catalogues (app/i18n/<lang>/<area>.json, ICU
 * MessageFormat, compiled at build time by Lingui). English is the only
 * language for now; Sinhala (si) and Tamil (ta) add a folder each.
 *
 * A module that uses keys of an area other than `common` imports that area once:
 *   import "virtual:catalogue/browse";
 * (checked by app/i18n/catalogue.test.ts).
 */
export type MessageValues = Record<string, unknown>;
export type { MessageKey };

/** What follows `Prefix.` in the keys below it: `KeysBelow<"report.form">` is "name" | "email" | ... */
export type KeysBelow<Prefix extends string> = MessageKey extends infer Key
  ? Key extends `${Prefix}.${infer Rest}`
    ? Rest
    : never
  : never;

/** Turns a message key and its values into text in one language. */
export type Translator = (key: MessageKey, values?: MessageValues) => string;

/**
 * English on the server, the page's language in the browser. Code that
 * answers a request uses the request's language instead: `useTranslation()` in
 * components, `translatorOf(locale)` in loaders, actions and meta (ADR 033).
 */
export function t(key: MessageKey, values?: MessageValues): string {
  const locale = currentLocale();
  return locale === DEFAULT_LOCALE ? i18n._(key, values) : translatorOf(locale)(key, values);
}

let currentLocale: () => Locale = () => DEFAULT_LOCALE;

/**
 * The language being written in: the request's on the server (setLocaleSource),
 * the page's in the browser. For formats (dates, numbers) made outside React.
 */
export function activeLocale(): Locale {
  return typeof document === "undefined" ? currentLocale() : ((i18n.locale as Locale) ?? DEFAULT_LOCALE);
}

/**
 * Server only: where `t` finds the language of the request it runs for
 * (request-locale.server.ts, an AsyncLocalStorage), so presenters, loaders and
 * actions answer in the reader's language without passing it around.
 */
export function setLocaleSource(source: () => Locale): void {
  currentLocale = source;
}

const translators = new Map<Locale, Translator>();

/** The translator for one language; one function per language, so it is stable across renders. */
export function translatorOf(locale: Locale): Translator {
  let translate = translators.get(locale);
  if (!translate) {
    const instance = i18nFor(locale);
    translate = (key, values) => instance._(key, values);
    translators.set(locale, translate);
  }
  return translate;
}

/** The language of the page being rendered: the root layout provides it (app/root.tsx). */
export const LocaleContext = createContext<Locale>(DEFAULT_LOCALE);

/**
 * Child keys below a prefix, in catalogue order (numeric keys sorted as
 * numbers): for list-like content such as policy sections.
 */
export function childKeys(prefix: string): string[] {
  const seen: string[] = [];
  const start = `${prefix}.`;
  for (const key of Object.keys(i18n.messages)) {
    if (!key.startsWith(start)) continue;
    const child = key.slice(start.length).split(".")[0];
    if (!seen.includes(child)) seen.push(child);
  }
  return seen.every((k) => /^\d+$/.test(k)) ? seen.sort((a, b) => Number(a) - Number(b)) : seen;
}

/** Paths in the page's language: ("/browse") -> "/si/browse" on a Sinhala page. */
export function useLocalePath(): (path: string) => string {
  const locale = useContext(LocaleContext);
  return (path) => localePath(locale, path);
}

/** Text in the page's language, and that language. */
export function useTranslation(): { t: Translator; locale: Locale } {
  const locale = useContext(LocaleContext);
  return { t: translatorOf(locale), locale };
}

export { i18n };
