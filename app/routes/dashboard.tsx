import { NavLink, Outlet } from "react-router";
import type { Route } from "./+types/dashboard";
import { requireUser } from "~/auth/auth.server";
import { t as translate, useTranslation } from "~/i18n";
import { pageMeta } from "~/lib/seo";
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

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(requestContext);
  const user = await requireUser(request, context);
  return { siteName: env.SITE_NAME, siteUrl: env.siteUrl, name: user.name };
}

const tabClasses = ({ isActive }: { isActive: boolean }) =>
  `inline-flex min-h-11 items-center rounded-lg px-4 font-semibold ${isActive ? "bg-brand-700 text-white" : "text-slate-800 hover:bg-slate-100"}`;

/** The protected shell: a greeting and the Overview / Settings switch (SPEC.md section 2 "Dashboard"). */
export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const name = loaderData.name.trim() || t("accounts.dashboard.fallbackName");
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-3xl font-bold">{t("accounts.dashboard.welcome", { name })}</h1>
      <nav aria-label={t("accounts.dashboard.sections")} className="mt-4">
        <ul className="flex gap-2">
          <li>
            <NavLink to="/dashboard" end className={tabClasses}>
              {t("accounts.dashboard.overview")}
            </NavLink>
          </li>
          <li>
            <NavLink to="/dashboard/settings" className={tabClasses}>
              {t("accounts.dashboard.settings")}
            </NavLink>
          </li>
        </ul>
      </nav>
      <div className="mt-6">
        <Outlet />
      </div>
    </div>
  );
}
