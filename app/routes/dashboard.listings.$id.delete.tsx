import { data, Form, Link, redirect } from "react-router";
import { parseAdNumber } from "~/lib/slug";
import type { Route } from "./+types/dashboard.listings.$id.delete";
import { isSameOrigin, requireUser } from "~/auth/auth.server";
import { Banner } from "~/components/ui/banner";
import { Button, buttonClasses } from "~/components/ui/button";
import { t as translate, useTranslation } from "~/i18n";
import { pageMeta } from "~/lib/seo";
import { deleteOwnerListing, findOwnerListing } from "~/models/my-listings.server";
import { requestContext } from "~/services.server";
import "virtual:catalogue/dashboard";

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [];
  const { siteName, siteUrl, listing } = loaderData;
  return pageMeta({
    title: translate("dashboard.delete.metaTitle", { siteName }),
    description: translate("dashboard.delete.confirm"),
    siteName,
    siteUrl,
    path: `/dashboard/listings/${listing.id}/delete`,
    noindex: true,
  });
};

/** Without JavaScript, the Delete link lands here to confirm. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { db, env } = context.get(requestContext);
  const user = await requireUser(request, context);
  const id = parseAdNumber(params.id);
  const listing = id === null ? null : await findOwnerListing(db, user.id, id);
  if (!listing) throw data(null, { status: 404 });
  return { siteName: env.SITE_NAME, siteUrl: env.siteUrl, listing };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { db, env, storage } = context.get(requestContext);
  const user = await requireUser(request, context);
  if (!isSameOrigin(request, env.siteUrl)) return data({ forbidden: true }, { status: 403 });
  const id = parseAdNumber(params.id);
  // Someone else's listing answers exactly like a missing one.
  const result = id === null ? null : await deleteOwnerListing(db, storage, user.id, id);
  if (!result?.ok) throw data(null, { status: 404 });
  return redirect("/dashboard?deleted=1");
}

export default function DeleteListing({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { listing } = loaderData;
  return (
    <section aria-labelledby="delete-heading" className="max-w-xl rounded-xl border border-slate-200 p-5">
      <h2 id="delete-heading" className="text-xl font-semibold">
        {t("dashboard.delete.heading")}
      </h2>
      {actionData?.forbidden ? (
        <Banner variant="error" title={t("dashboard.delete.forbidden")} className="mt-4" />
      ) : null}
      <p className="mt-3 text-lg">{t("dashboard.delete.confirm")}</p>
      <p className="mt-1 font-semibold">{listing.title}</p>
      <div className="mt-5 flex flex-wrap gap-3">
        <Form method="post">
          <Button type="submit" variant="danger">
            {t("dashboard.delete.submit")}
          </Button>
        </Form>
        <Link to="/dashboard" className={buttonClasses("secondary")}>
          {t("dashboard.delete.cancel")}
        </Link>
      </div>
    </section>
  );
}
