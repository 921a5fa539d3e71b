import { Outlet } from "react-router";
import type { Route } from "./+types/dashboard";
import { requireUser } from "~/auth/auth.server";
import { TabNav } from "~/components/ui/tab-nav";
import { t as translate, useTranslation } from "~/i18n";
import { pageMeta } from "~/lib/seo";
import { noStore } from "~/security/no-store.server";
import { requestContext } from "~/services.server";
import "virtual:catalogue/accounts";

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [];
  const { siteName, siteUrl } = loaderData;
  return pageMeta({
    title: translate("accounts.dashboard.metaTitle", { siteName }),
    description: translate("accounts.dashboard.description", { siteName }),
    siteName,
    siteUrl,
    path: "/dashboard",
    noindex: true,
  });
};

/** Never cached anywhere (issue 9): private, or about signing in. */
export const middleware: Route.MiddlewareFunction[] = [noStore];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(requestContext);
  const user = await requireUser(request, context);
  return { siteName: env.SITE_NAME, siteUrl: env.siteUrl, name: user.name, isModerator: user.role === "moderator" };
}

/** The protected shell: a greeting and the Overview / Settings switch (SPEC.md section 2 "Dashboard"). */
export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const name = loaderData.name.trim() || t("accounts.dashboard.fallbackName");
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-3xl font-bold">{t("accounts.dashboard.welcome", { name })}</h1>
      <TabNav
        label={t("accounts.dashboard.sections")}
        className="mt-4"
        tabs={[
          // The post and edit dialogs sit over the overview, so it stays the current tab there.
          { to: "/dashboard", label: t("accounts.dashboard.overview"), end: true, alsoUnder: "/dashboard/listings/" },
          { to: "/dashboard/settings", label: t("accounts.dashboard.settings") },
          // Moderators also reach /admin from here.
          ...(loaderData.isModerator ? [{ to: "/admin", label: t("accounts.dashboard.admin") }] : []),
        ]}
      />
      <div className="mt-6">
        <Outlet />
      </div>
    </div>
  );
}
