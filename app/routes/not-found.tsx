import { data } from "react-router";
import { ButtonLink } from "~/components/ui/button";
import { useTranslation } from "~/i18n";
import { routeMeta } from "~/lib/route-meta";
import type { Route } from "./+types/not-found";
import "virtual:catalogue/info";

export const meta: Route.MetaFunction = routeMeta((site) => [
  { title: site.t("info.notFound.metaTitle", site) },
  { name: "robots", content: "noindex" },
]);

// The catch-all route: every unknown URL answers 404 with a helpful page.
export function loader() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-3xl font-bold">{t("common.errors.notFoundTitle")}</h1>
      <p className="mt-3 text-slate-700">{t("common.errors.notFoundText")}</p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <ButtonLink to="/" variant="secondary" size="lg">
          {t("common.errors.goHome")}
        </ButtonLink>
        <ButtonLink to="/browse" size="lg">
          {t("common.errors.browseListings")}
        </ButtonLink>
      </div>
    </div>
  );
}
