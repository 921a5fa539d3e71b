import { Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { SearchIcon } from "~/components/ui/icons";
import { useTranslation } from "~/i18n";
import "virtual:catalogue/browse";

/** 'No listings found', with a way back to page 1 when the link pointed past the last page. */
export function EmptyState({ firstPageHref }: { firstPageHref?: string }) {
  const { t } = useTranslation();
  return (
    <div className="rounded-xl border border-dashed border-slate-300 px-6 py-12 text-center">
      <SearchIcon className="mx-auto h-12 w-12 text-slate-400" />
      <h2 className="mt-4 text-lg font-semibold">{t("browse.empty.title")}</h2>
      <p className="mt-2 text-slate-600">{t("browse.empty.text")}</p>
      {firstPageHref ? (
        <Link to={firstPageHref} replace className={buttonClasses("primary", "md", "mt-6")}>
          {t("browse.empty.firstPage")}
        </Link>
      ) : null}
    </div>
  );
}
