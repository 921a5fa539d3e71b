import { buttonClasses, inputClasses } from "~/components/ui/button";
import { SearchIcon } from "~/components/ui/icons";
import { useTranslation } from "~/i18n";
import { FILTER_FORM_ID } from "~/schemas/filter-draft";
import "virtual:catalogue/browse";

export type SearchBoxProps = {
  /** The search text the box starts with. */
  value: string;
};

/** The search text belongs to the filter form (via the form attribute), so Enter and the button submit it. */
export function SearchBox({ value }: SearchBoxProps) {
  const { t } = useTranslation();
  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is too new for the older Android WebViews many students use; role="search" works everywhere
    <div role="search" className="flex gap-2">
      <label htmlFor="browse-search" className="sr-only">
        {t("browse.search.label")}
      </label>
      <div className="relative flex-1">
        <SearchIcon className="pointer-events-none absolute top-1/2 left-3 h-5 w-5 -translate-y-1/2 text-slate-500" />
        <input
          id="browse-search"
          type="search"
          name="search"
          form={FILTER_FORM_ID}
          defaultValue={value}
          placeholder={t("browse.search.placeholder")}
          maxLength={200}
          autoComplete="off"
          enterKeyHint="search"
          className={`${inputClasses} min-h-12 pl-10`}
        />
      </div>
      <button type="submit" form={FILTER_FORM_ID} className={buttonClasses("primary", "md", "min-h-12")}>
        {t("browse.search.submit")}
      </button>
    </div>
  );
}
