import { useTranslation } from "~/i18n";
import { formatAmount } from "~/lib/format";
import type { SiteFigures } from "~/schemas/site-figures-view";
import "virtual:catalogue/home";

/** Real figures from the database (no fixed marketing claims), counted by `siteFigures`. */
export function SiteStats({ figures }: { figures: SiteFigures }) {
  const { t } = useTranslation();
  const { listingCount, universitiesWithListings, universitiesSupported } = figures;
  const stats = [
    { id: "listings", value: listingCount, label: t("home.stats.listings", { count: listingCount }) },
    {
      id: "universities-with-listings",
      value: universitiesWithListings,
      label: t("home.stats.universitiesWithListings", { count: universitiesWithListings }),
    },
    { id: "universities-supported", value: universitiesSupported, label: t("home.stats.universitiesSupported") },
  ];
  // Side by side while the labels' longest words fit; at 360 px a Tamil label's do not, and a figure
  // moves to the next row (flex-1 items wrap at their min-content width) instead of widening the page.
  return (
    <dl className="flex flex-wrap gap-4 text-center">
      {stats.map((s) => (
        <div key={s.id} data-stat={s.id} className="flex flex-1 flex-col-reverse">
          <dt className="text-sm text-slate-700 sm:text-base">{s.label}</dt>
          <dd className="text-2xl font-bold text-brand-700 sm:text-3xl">{formatAmount(s.value, "en")}</dd>
        </div>
      ))}
    </dl>
  );
}
