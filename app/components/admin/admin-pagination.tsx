import { Link, useLocation } from "react-router";
import { useTranslation } from "~/i18n";
import type { Pagination } from "~/lib/pagination";
import "virtual:catalogue/admin";

const linkClass =
  "inline-flex min-h-11 items-center rounded-lg border border-slate-300 bg-white px-4 font-medium text-slate-800 hover:border-brand-600";

/** Previous / next links that keep the other query parameters (work without JavaScript). */
export function AdminPagination({ pagination }: { pagination: Pagination }) {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  if (pagination.totalPages <= 1) return null;
  const href = (page: number) => {
    const params = new URLSearchParams(search);
    params.set("page", String(page));
    return `${pathname}?${params}`;
  };
  return (
    <nav aria-label={t("admin.pagination.label")} className="mt-6 flex flex-wrap items-center gap-3">
      {pagination.hasPrev ? (
        <Link to={href(pagination.page - 1)} className={linkClass}>
          {t("admin.pagination.previous")}
        </Link>
      ) : null}
      <span className="text-slate-700">
        {t("admin.pagination.position", { page: pagination.page, totalPages: pagination.totalPages })}
      </span>
      {pagination.hasNext ? (
        <Link to={href(pagination.page + 1)} className={linkClass}>
          {t("admin.pagination.next")}
        </Link>
      ) : null}
    </nav>
  );
}
