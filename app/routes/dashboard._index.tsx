import type { Route } from "./+types/dashboard._index";
import { requireUser } from "~/auth/auth.server";
import { useTranslation } from "~/i18n";
import { countListingsByUser } from "~/models/account.server";
import { requestContext } from "~/services.server";
import "virtual:catalogue/accounts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(requestContext);
  const user = await requireUser(request, context);
  return { adCount: await countListingsByUser(db, user.id) };
}

export default function DashboardOverview({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="overview-heading" className="rounded-xl border border-slate-200 p-5">
      <h2 id="overview-heading" className="text-xl font-semibold">
        {t("accounts.dashboard.overview")}
      </h2>
      <p className="mt-2 text-lg">{t("accounts.dashboard.adCount", { count: loaderData.adCount })}</p>
      <p className="mt-2 text-slate-700">{t("accounts.dashboard.postingSoon")}</p>
    </section>
  );
}
