import { Link } from "react-router";
import { RemoveChipIcon } from "~/components/ui/icons";
import { useTranslation } from "~/i18n";
import type { FilterChip } from "~/schemas/browse-view";
import "virtual:catalogue/browse";

/** Removable chips, one per active filter; each is a plain link to the results without it. */
export function FilterChips({ chips, clearHref }: { chips: FilterChip[]; clearHref: string }) {
  const { t } = useTranslation();
  if (chips.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <h2 className="sr-only">{t("browse.filters.activeFilters")}</h2>
      <ul className="flex flex-wrap gap-2">
        {chips.map((chip) => (
          <li key={chip.key}>
            <Link
              to={chip.href}
              replace
              preventScrollReset
              aria-label={t("browse.chips.remove", { label: chip.label })}
              data-chip={chip.key}
              className="inline-flex min-h-11 items-center gap-2 rounded-full border border-brand-200 bg-brand-50 py-1 pr-3 pl-4 text-sm font-medium text-brand-900 hover:border-brand-600"
            >
              <span>{chip.label}</span>
              <RemoveChipIcon />
            </Link>
          </li>
        ))}
      </ul>
      <Link
        to={clearHref}
        replace
        preventScrollReset
        className="inline-flex min-h-11 items-center px-2 text-sm font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800"
      >
        {t("browse.filters.clearAll")}
      </Link>
    </div>
  );
}
