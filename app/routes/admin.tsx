import { isRouteErrorResponse, Link } from "react-router";
import { moderatorsOnly } from "~/auth/guard.server";
import { buttonClasses } from "~/components/ui/button";
import { TabbedLayout } from "~/components/ui/tab-nav";
import { useTranslation } from "~/i18n";
import { routeMeta } from "~/lib/route-meta";
import { pageMeta } from "~/lib/seo";
import { noStore } from "~/security/no-store.server";
import type { Route } from "./+types/admin";
import "virtual:catalogue/admin";

export const meta: Route.MetaFunction = routeMeta((site, { loaderData, error }) => {
  // Undefined only when this layout's own loader failed; a child's error caught here leaves its null.
  if (loaderData === undefined) {
    const title =
      isRouteErrorResponse(error) && error.status === 404
        ? site.t("admin.notFound.title")
        : site.t("admin.forbidden.title");
    return [{ title }, { name: "robots", content: "noindex" }];
  }
  return pageMeta({
    ...site,
    title: site.t("admin.metaTitle", site),
    description: site.t("admin.heading"),
    path: "/admin",
    noindex: true,
  });
});

/**
 * Never cached anywhere (ADR 016): private, or about signing in. Moderators
 * only: visitors are sent to log in, everyone else gets a 403 (ADR 025).
 */
export const middleware: Route.MiddlewareFunction[] = [noStore, moderatorsOnly.middleware];

export async function loader({ request, context }: Route.LoaderArgs) {
  await moderatorsOnly.user({ request, context });
  return null;
}

export default function AdminLayout() {
  const { t } = useTranslation();
  return (
    <TabbedLayout
      heading={t("admin.heading")}
      label={t("admin.sections")}
      tabs={[
        { to: "/admin", label: t("admin.nav.reports"), end: true, alsoUnder: "/admin/reports/" },
        { to: "/admin/held", label: t("admin.nav.held") },
        { to: "/admin/audit", label: t("admin.nav.audit") },
      ]}
    />
  );
}

/** A signed-in owner (or a moderator no more) is told plainly; a missing report says so. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  if (!isRouteErrorResponse(error) || (error.status !== 403 && error.status !== 404)) throw error;
  const forbidden = error.status === 403;
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">{forbidden ? t("admin.forbidden.title") : t("admin.notFound.title")}</h1>
      <p className="mt-3 text-slate-700">{forbidden ? t("admin.forbidden.text") : t("admin.notFound.text")}</p>
      <Link to={forbidden ? "/" : "/admin"} className={buttonClasses("secondary", "md", "mt-6")}>
        {forbidden ? t("admin.forbidden.home") : t("admin.report.back")}
      </Link>
    </div>
  );
}
