import { ButtonLink } from "~/components/ui/button";
import { useTranslation } from "~/i18n";
import "virtual:catalogue/listing";

/** The listing page's not-found state (served with HTTP 404). */
export function ListingNotFound() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">{t("listing.notFound.title")}</h1>
      <p className="mt-3 text-slate-700">{t("listing.notFound.text")}</p>
      <div className="mt-6 flex justify-center">
        <ButtonLink to="/browse">{t("listing.notFound.browse")}</ButtonLink>
      </div>
    </div>
  );
}
