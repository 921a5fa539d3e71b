import { useEffect, useState } from "react";
import { useLocation } from "react-router";
import { useTranslation } from "~/i18n";
import { LANGUAGE_NAMES, LOCALES, type Locale, languageSwitchHref, preferredLocale } from "~/i18n/locales";

import LanguageSuggestion from "./language-suggestion";

const SUGGESTION_DONE = "bodima-language-suggestion";

function markSuggestionDone() {
  try {
    localStorage.setItem(SUGGESTION_DONE, "done");
  } catch {}
}

function suggestionDone(): boolean {
  try {
    return localStorage.getItem(SUGGESTION_DONE) === "done";
  } catch {
    return true; // Storage refused (private mode): never show what could not be dismissed for good.
  }
}

/**
 * Offers the page in the browser's first language when it is another of ours
 * (ADR 036): decided in the browser, so cached pages stay the same for
 * everyone and nothing redirects. (Not a lazy import: Vite's preload helper would cost more
 * first-load JavaScript than the card itself.)
 */
export function LanguageSuggestionSlot() {
  const { locale } = useTranslation();
  const [suggested, setSuggested] = useState<Locale | null>(null);
  useEffect(() => {
    const wanted = preferredLocale(navigator.languages?.length ? navigator.languages : [navigator.language]);
    // Only Sinhala and Tamil readers are offered their language (ADR 036); English is the default anyway.
    setSuggested(wanted && wanted !== "en" && wanted !== locale && !suggestionDone() ? wanted : null);
  }, [locale]);
  if (!suggested) return null;
  const done = () => {
    markSuggestionDone();
    setSuggested(null);
  };
  return <LanguageSuggestion to={suggested} onDone={done} />;
}

/**
 * The same page, with its filters, in each language, each name in its own script
 * (ADR 036). Plain links: a new language is a new page load, with its own
 * <html lang> and messages (ADR 033).
 */
export function LanguageSwitcher({ className = "", landmark = true }: { className?: string; landmark?: boolean }) {
  const { t, locale } = useTranslation();
  // Inside the page's language: the path without /si or /ta.
  const { pathname, search } = useLocation();
  // One navigation landmark per label: the footer's copy is a group, not a second "Language" landmark.
  const Wrapper = landmark ? "nav" : "div";
  return (
    <Wrapper role={landmark ? undefined : "group"} aria-label={t("common.language.label")} className={className}>
      <ul className="flex flex-wrap items-center gap-1">
        {LOCALES.map((other) => (
          <li key={other}>
            {other === locale ? (
              <span
                lang={other}
                aria-current="page"
                className="flex min-h-11 items-center rounded-lg px-2 font-semibold text-slate-900"
              >
                {LANGUAGE_NAMES[other]}
              </span>
            ) : (
              <a
                href={languageSwitchHref(other, pathname + search)}
                hrefLang={other}
                lang={other}
                // A reader who chose a language is not offered another one.
                onClick={markSuggestionDone}
                className="flex min-h-11 items-center rounded-lg px-2 text-brand-700 underline-offset-2 hover:underline"
              >
                {LANGUAGE_NAMES[other]}
              </a>
            )}
          </li>
        ))}
      </ul>
    </Wrapper>
  );
}
