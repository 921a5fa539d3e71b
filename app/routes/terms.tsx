import { PolicyPage } from "~/components/policy-page";
import { cataloguePageMeta, useSite } from "~/lib/route-meta";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/terms";
import "virtual:catalogue/info";

export const meta: Route.MetaFunction = cataloguePageMeta({
  title: "info.terms.meta.title",
  description: "info.terms.meta.description",
  path: "/terms",
});

export function loader({ context }: Route.LoaderArgs) {
  const { env } = context.get(requestContext);
  return { supportEmail: env.SUPPORT_EMAIL };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  const { siteName } = useSite();
  return <PolicyPage area="terms" siteName={siteName} supportEmail={loaderData.supportEmail} />;
}
