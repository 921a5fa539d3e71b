import { data, Form, Link, redirect } from "react-router";
import { signedIn } from "~/auth/guard.server";
import { Banner } from "~/components/ui/banner";
import { Button, buttonClasses } from "~/components/ui/button";
import { useTranslation } from "~/i18n";
import { privatePageMeta } from "~/lib/route-meta";
import { parseAdNumber } from "~/lib/slug";
import { findOwnerListing } from "~/models/owner-listing-reads.server";
import { deleteOwnerListing } from "~/models/owner-listings.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/dashboard.listings.$id.delete";
import "virtual:catalogue/dashboard";
import { Section } from "~/components/ui/section";

export const meta: Route.MetaFunction = privatePageMeta({
  title: "dashboard.delete.metaTitle",
  description: "dashboard.delete.confirm",
  path: (loaderData) => `/dashboard/listings/${loaderData.listing.id}/delete`,
});

/** Without JavaScript, the Delete link lands here to confirm. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { db } = context.get(requestContext);
  const user = await signedIn.user({ request, context });
  const id = parseAdNumber(params.id);
  const listing = id === null ? null : await findOwnerListing(db, user.id, id);
  if (!listing) throw data(null, { status: 404 });
  return { listing };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { db, storage } = context.get(requestContext);
  const write = await signedIn.write({ request, context });
  if (!write.ok) return data({ forbidden: true }, { status: 403 });
  const id = parseAdNumber(params.id);
  // Someone else's listing answers exactly like a missing one.
  const result = id === null ? null : await deleteOwnerListing(db, storage, write.user.id, id);
  if (!result?.ok) throw data(null, { status: 404 });
  return redirect("/dashboard?deleted=1");
}

export default function DeleteListing({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { listing } = loaderData;
  return (
    <Section id="delete-heading" look="card" className="max-w-xl" heading={t("dashboard.delete.heading")}>
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
    </Section>
  );
}
