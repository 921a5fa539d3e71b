import { buttonClasses } from "~/components/ui/button";
import { inputClasses } from "~/components/ui/form-field";
import { SearchIcon } from "~/components/ui/icons";
import { useTranslation } from "~/i18n";
import { FILTER_FORM_ID } from "./filter-draft";
import "virtual:catalogue/browse";

export type SearchBoxProps = {
  value: string;
  onChange: (value: string) => void;
};

/** The search text belongs to the filter form (via the form attribute), so Enter and the button submit it. */
export function SearchBox({ value, onChange }: SearchBoxProps) {
  const { t } = useTranslation();
  return (
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
          value={value}
          onChange={(e) => onChange(e.target.value)}
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
