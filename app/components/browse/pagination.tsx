import { Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { PageNav } from "~/schemas/browse-view";
import "virtual:catalogue/browse";

const itemBase = "inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg border px-3 text-sm font-medium";
const linkClass = `${itemBase} border-slate-300 bg-white text-slate-800 hover:border-brand-600 hover:text-brand-800`;
const disabledClass = `${itemBase} border-slate-200 text-slate-400`;
const currentClass = `${itemBase} border-brand-700 bg-brand-700 text-white`;
/** Phones get only Previous and Next. */
const wideOnly = "hidden sm:block";

/**
 * First, previous, numbered pages (2 either side plus first and last, with
 * ellipses), next, last. Plain links, so paging works without JavaScript;
 * they replace the history entry like every other browse change.
 */
export function PaginationNav({ nav }: { nav: PageNav | null }) {
  const { t } = useTranslation();
  if (!nav) return null;

  const edge = (href: string | null, label: string, className = "") => (
    <li className={className}>
      {href ? (
        <Link to={href} replace className={linkClass}>
          {label}
        </Link>
      ) : (
        <span className={disabledClass} aria-disabled="true">
          {label}
        </span>
      )}
    </li>
  );

  return (
    <nav aria-label={t("browse.pagination.label")} className="mt-8">
      <ul className="flex flex-wrap items-center justify-between gap-2 sm:justify-center">
        {edge(nav.first, t("browse.pagination.first"), wideOnly)}
        {edge(nav.previous, t("browse.pagination.previous"))}
        {nav.pages.map((item, i) =>
          item ? (
            <li key={item.page} className={wideOnly}>
              {item.page === nav.page ? (
                <span className={currentClass} aria-current="page">
                  <span className="sr-only">{t("browse.pagination.page", { page: item.page })}</span>
                  <span aria-hidden="true">{item.page}</span>
                </span>
              ) : (
                <Link
                  to={item.href}
                  replace
                  className={linkClass}
                  aria-label={t("browse.pagination.page", { page: item.page })}
                >
                  {item.page}
                </Link>
              )}
            </li>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: a gap has no identity but its place between two page numbers
            <li key={`gap-${i}`} className={`${wideOnly} px-1 text-slate-500`} aria-hidden="true">
              …
            </li>
          ),
        )}
        {edge(nav.next, t("browse.pagination.next"))}
        {edge(nav.last, t("browse.pagination.last"), wideOnly)}
      </ul>
    </nav>
  );
}
