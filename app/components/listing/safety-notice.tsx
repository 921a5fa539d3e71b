import { ShieldIcon } from "~/components/ui/icons";
import { useTranslation } from "~/i18n";
import "virtual:catalogue/listing";

// 'Never pay before you have seen the place' stands beside every contact action
// instead (ADR 077), so the notice does not say it twice.
const SAFETY_ITEMS = ["visit", "meetOwner", "amenities", "terms", "scamSigns"] as const;

/** The safety notice, calm and readable rather than alarming. */
export function SafetyNotice({ siteName }: { siteName: string }) {
  const { t } = useTranslation();
  return (
    <section
      aria-labelledby="safety-heading"
      className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-950"
    >
      <h2 id="safety-heading" className="flex items-center gap-2 text-base font-semibold">
        <ShieldIcon className="h-5 w-5 shrink-0 text-amber-700" />
        {t("listing.safety.heading")}
      </h2>
      <p className="mt-2 text-sm">{t("listing.safety.intro")}</p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
        {SAFETY_ITEMS.map((item) => (
          <li key={item}>{t(`listing.safety.items.${item}`)}</li>
        ))}
      </ul>
      <p className="mt-3 text-sm">{t("listing.safety.disclaimer", { siteName })}</p>
    </section>
  );
}
