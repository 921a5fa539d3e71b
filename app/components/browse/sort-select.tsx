import { inputClasses } from "~/components/ui/button";
import { useTranslation } from "~/i18n";
import { FILTER_FORM_ID } from "~/schemas/filter-draft";
import "virtual:catalogue/browse";

export type SortSelectProps = {
  /** The order the select starts with ('' for the default order). */
  value: string;
  hasSearch: boolean;
  /** A university is chosen: 'Nearest first' (to its faculty) can be offered. */
  canSortByDistance: boolean;
};

/** Part of the filter form (form attribute), so it is sent with the other filters without JavaScript too. */
export function SortSelect({ value, hasSearch, canSortByDistance }: SortSelectProps) {
  const { t } = useTranslation();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor="browse-sort" className="text-sm font-medium whitespace-nowrap text-slate-700">
        {t("browse.sort.label")}
      </label>
      <select
        id="browse-sort"
        name="sort"
        form={FILTER_FORM_ID}
        defaultValue={value}
        className={`${inputClasses} w-auto text-sm`}
      >
        <option value="">{hasSearch ? t("browse.sort.relevance") : t("browse.sort.newest")}</option>
        {hasSearch ? <option value="newest">{t("browse.sort.newest")}</option> : null}
        <option value="price_asc">{t("browse.sort.price_asc")}</option>
        <option value="price_desc">{t("browse.sort.price_desc")}</option>
        {canSortByDistance ? <option value="nearest">{t("browse.sort.nearest")}</option> : null}
      </select>
    </div>
  );
}
