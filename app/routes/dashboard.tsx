import { Outlet } from "react-router";
import { signedIn } from "~/auth/guard.server";
import { TabNav } from "~/components/ui/tab-nav";
import { useTranslation } from "~/i18n";
import { routeMeta } from "~/lib/route-meta";
import { pageMeta } from "~/lib/seo";
import { noStore } from "~/security/no-store.server";
import type { Route } from "./+types/dashboard";
import "virtual:catalogue/accounts";

export const meta: Route.MetaFunction = routeMeta((site, { loaderData }) => {
  if (!loaderData) return [];
  return pageMeta({
    ...site,
    title: site.t("accounts.dashboard.metaTitle", site),
    description: site.t("accounts.dashboard.description", site),
    path: "/dashboard",
    noindex: true,
  });
});

/**
 * Never cached anywhere (issue 9): private, or about signing in. Every route
 * below is for a signed-in account, writes from our own pages only (ADR 025).
 */
export const middleware: Route.MiddlewareFunction[] = [noStore, signedIn.middleware];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await signedIn.user({ request, context });
  return { name: user.name, isModerator: user.role === "moderator" };
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
