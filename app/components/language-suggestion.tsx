import { useLocation } from "react-router";
import { useTranslation } from "~/i18n";
import { type Locale, languageSwitchHref } from "~/i18n/locales";
import { CloseIcon } from "./ui/icons";

/**
 * The offer, written in the language offered (the page's messages are in another one): like the
 * language names of the switcher, part of choosing a language, not of one page's catalogue.
 */
const READ_IN: Record<Locale, string> = {
  en: "Read this page in English",
  si: "මෙම පිටුව සිංහලෙන් කියවන්න",
  ta: "இந்தப் பக்கத்தைத் தமிழில் படிக்கவும்",
};

/**
 * A small card offering the page in the browser's own language (docs/i18n.md):
 * never a redirect, which would break caches and search engines. Loaded only
 * for a visitor whose browser asks for another of our languages first.
 */
export default function LanguageSuggestion({ to, onDone }: { to: Locale; onDone: () => void }) {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  return (
    <aside
      lang={to}
      className="fixed inset-x-3 bottom-3 z-40 flex items-center gap-2 rounded-xl border border-slate-200 bg-white p-2 pl-4 shadow-lg sm:left-auto sm:max-w-sm"
    >
      <a
        href={languageSwitchHref(to, pathname + search)}
        hrefLang={to}
        onClick={onDone}
        className="flex min-h-11 flex-1 items-center font-semibold text-brand-700 underline underline-offset-2"
      >
        {READ_IN[to]}
      </a>
      <button
        type="button"
        onClick={onDone}
        aria-label={t("common.language.dismissSuggestion")}
        className="flex h-11 w-11 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100"
      >
        <CloseIcon className="h-5 w-5" />
      </button>
    </aside>
  );
}
