import { useTranslation } from "~/i18n";
import { ButtonLink } from "./ui/button";
import "virtual:catalogue/info";

/** Stand-in for /login and /signup until owner accounts arrive (issue 3). */
export function AccountsSoon({ page }: { page: "login" | "signup" }) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-xl px-4 py-16">
      <h1 className="text-3xl font-bold">{t(`info.${page}.heading`)}</h1>
      <p className="mt-4 text-lg text-slate-800">{t(`info.${page}.text`)}</p>
      <p className="mt-2 text-slate-700">{t(`info.${page}.noAccountNeeded`)}</p>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        <ButtonLink to="/browse" size="lg">
          {t("info.accountsSoon.browse")}
        </ButtonLink>
        <ButtonLink to="/contact" variant="secondary" size="lg">
          {t("info.accountsSoon.contact")}
        </ButtonLink>
      </div>
    </div>
  );
}
