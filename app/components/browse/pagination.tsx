import { Link } from "react-router";
import { useTranslation } from "~/i18n";
import { pageWindow } from "~/lib/pagination";
import "virtual:catalogue/browse";

export type PaginationNavProps = {
  page: number;
  totalPages: number;
  hrefFor: (page: number) => string;
};

const itemBase = "inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg border px-3 text-sm font-medium";
const linkClass = `${itemBase} border-slate-300 bg-white text-slate-800 hover:border-brand-600 hover:text-brand-800`;
const disabledClass = `${itemBase} border-slate-200 text-slate-400`;
const currentClass = `${itemBase} border-brand-700 bg-brand-700 text-white`;
/** Phones get only Previous and Next (SPEC.md section 2). */
const wideOnly = "hidden sm:block";

/**
 * First, previous, numbered pages (2 either side plus first and last, with
 * ellipses), next, last. Plain links, so paging works without JavaScript;
 * they replace the history entry like every other browse change.
 */
export function PaginationNav({ page, totalPages, hrefFor }: PaginationNavProps) {
  const { t } = useTranslation();
  const outOfRange = page > totalPages;
  // Hidden with one page or fewer, unless the link pointed past the end and needs a way back.
  if (totalPages < 1 || (totalPages === 1 && !outOfRange)) return null;

  const previous = outOfRange ? totalPages : page - 1;
  const next = page + 1;
  const items = pageWindow(Math.min(page, totalPages), totalPages);

  const edge = (target: number, enabled: boolean, label: string, className = "") => (
    <li className={className}>
      {enabled ? (
        <Link to={hrefFor(target)} replace className={linkClass} data-page={target}>
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
        {edge(1, page > 1, t("browse.pagination.first"), wideOnly)}
        {edge(previous, previous >= 1, t("browse.pagination.previous"))}
        {items.map((item) =>
          item.type === "ellipsis" ? (
            <li key={item.key} className={`${wideOnly} px-1 text-slate-500`} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item.page} className={wideOnly}>
              {item.page === page ? (
                <span className={currentClass} aria-current="page">
                  <span className="sr-only">{t("browse.pagination.page", { page: item.page })}</span>
                  <span aria-hidden="true">{item.page}</span>
                </span>
              ) : (
                <Link to={hrefFor(item.page)} replace className={linkClass} aria-label={t("browse.pagination.page", { page: item.page })}>
                  {item.page}
                </Link>
              )}
            </li>
          ),
        )}
        {edge(next, next <= totalPages, t("browse.pagination.next"))}
        {edge(totalPages, page < totalPages, t("browse.pagination.last"), wideOnly)}
      </ul>
    </nav>
  );
}
