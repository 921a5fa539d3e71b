import { useLocation } from "react-router";
import { useTranslation } from "~/i18n";
import { LANGUAGE_NAMES, LOCALES, localePath } from "~/i18n/locales";

/**
 * The same page, with its filters, in each language, each name in its own script
 * (issue 11). Plain links: a new language is a new page load, with its own
 * <html lang> and messages (ADR 033).
 */
export function LanguageSwitcher({ className = "" }: { className?: string }) {
  const { t, locale } = useTranslation();
  // Inside the page's language: the path without /si or /ta.
  const { pathname, search } = useLocation();
  return (
    <nav aria-label={t("common.language.label")} className={className}>
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
                href={localePath(other, pathname + search)}
                hrefLang={other}
                lang={other}
                className="flex min-h-11 items-center rounded-lg px-2 text-brand-700 underline-offset-2 hover:underline"
              >
                {LANGUAGE_NAMES[other]}
              </a>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
