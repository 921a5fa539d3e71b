import { WarningIcon } from "~/components/ui/icons";
import { useTranslation } from "~/i18n";
import "virtual:catalogue/browse";

/**
 * 'Some filters in this link were ignored', drawn as <Banner variant="warning">
 * draws it. Written out because banner.js (every variant) would cost /browse
 * about 0.5 KB of its first-load budget for a message few links need;
 * link-notice.test.tsx fails if the two ever differ.
 */
export function LinkNotice({ text }: { text: string }) {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      className="flex gap-3 rounded-lg border p-4 border-amber-300 bg-amber-50 text-amber-950 mb-4"
      data-testid="browse-notice"
    >
      <WarningIcon className="mt-0.5 h-5 w-5 shrink-0 text-amber-700" />
      <div className="min-w-0">
        <p className="font-semibold">{t("browse.notice.title")}</p>
        <div className="mt-1 text-sm">{text}</div>
      </div>
    </div>
  );
}
