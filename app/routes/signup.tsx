import type { Route } from "./+types/signup";
import { AccountsSoon } from "~/components/accounts-soon";
import { t } from "~/i18n";
import { pageMeta } from "~/lib/seo";
import { requestContext } from "~/services.server";
import "virtual:catalogue/info";

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [];
  const { siteName, siteUrl } = loaderData;
  return pageMeta({
    title: t("info.signup.meta.title", { siteName }),
    description: t("info.signup.meta.description", { siteName }),
    siteName,
    siteUrl,
    path: "/signup",
    noindex: true,
  });
};

export function loader({ context }: Route.LoaderArgs) {
  const { env } = context.get(requestContext);
  return { siteName: env.SITE_NAME, siteUrl: env.siteUrl };
}

export default function Page() {
  return <AccountsSoon page="signup" />;
}
