import type { Route } from "./+types/terms";
import { PolicyPage } from "~/components/policy-page";
import { t } from "~/i18n";
import { pageMeta } from "~/lib/seo";
import { requestContext } from "~/services.server";
import "virtual:catalogue/info";

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [];
  const { siteName, siteUrl } = loaderData;
  return pageMeta({
    title: t("info.terms.meta.title", { siteName }),
    description: t("info.terms.meta.description", { siteName }),
    siteName,
    siteUrl,
    path: "/terms",
  });
};

export function loader({ context }: Route.LoaderArgs) {
  const { env } = context.get(requestContext);
  return { siteName: env.SITE_NAME, siteUrl: env.siteUrl, supportEmail: env.SUPPORT_EMAIL };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  return <PolicyPage area="terms" siteName={loaderData.siteName} supportEmail={loaderData.supportEmail} />;
}
