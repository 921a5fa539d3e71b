import { PolicyPage } from "~/components/policy-page";
import { routeMeta, useSite } from "~/lib/route-meta";
import { pageMeta } from "~/lib/seo";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/terms";
import "virtual:catalogue/info";

export const meta: Route.MetaFunction = routeMeta((site, { loaderData }) => {
  if (!loaderData) return [];
  return pageMeta({
    ...site,
    title: site.t("info.terms.meta.title", site),
    description: site.t("info.terms.meta.description", site),
    path: "/terms",
  });
});

export function loader({ context }: Route.LoaderArgs) {
  const { env } = context.get(requestContext);
  return { supportEmail: env.SUPPORT_EMAIL };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  const { siteName } = useSite();
  return <PolicyPage area="terms" siteName={siteName} supportEmail={loaderData.supportEmail} />;
}
