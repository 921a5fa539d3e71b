import { useTranslation } from "~/i18n";

/**
 * 'Never pay key money or an advance before you have seen the place and met
 * the owner': said beside every way to contact an owner (Call Now, the phone
 * number, a shortlist's call buttons; ADR 077), in the page's language.
 */
export function PayAfterVisit({ compact = false, className = "" }: { compact?: boolean; className?: string }) {
  const { t } = useTranslation();
  return (
    <p
      data-testid="pay-after-visit"
      className={`rounded-md bg-amber-50 text-amber-900 ${compact ? "px-2 py-1 text-xs" : "px-3 py-2 text-sm"} ${className}`}
    >
      {t("common.payAfterVisit")}
    </p>
  );
}
