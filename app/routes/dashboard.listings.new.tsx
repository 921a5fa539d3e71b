import { signedIn } from "~/auth/guard.server";
import { ConfirmEmailBanner, confirmEmailBannerOf } from "~/components/accounts/confirm-email-banner";
import { DashboardDialog } from "~/components/dashboard/dashboard-dialog";
import { ListingForm } from "~/components/listing-form/listing-form";
import { Banner } from "~/components/ui/banner";
import { ButtonLink } from "~/components/ui/button";
import { useTranslation } from "~/i18n";
import { mapTiles } from "~/lib/map-tiles";
import { privatePageMeta } from "~/lib/route-meta";
import { countOwnerListings, createOwnerListing, MAX_LISTINGS_PER_OWNER } from "~/models/owner-listings.server";
import {
  type ListingActionResult,
  readListingSubmission,
  refuse,
  savedAnswer,
  submittedPhotos,
  unavailable,
} from "~/pages/listing-form.server";
import { holdForPhoneCode, phoneCheckFor } from "~/pages/listing-phone.server";
import { fail } from "~/schemas/result";
import { LISTING_FORM_BODY, readBody } from "~/security/body-limit.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/dashboard.listings.new";
import "virtual:catalogue/listing-form";

export const meta: Route.MetaFunction = privatePageMeta({
  title: "listingForm.metaTitle",
  description: "listingForm.metaDescription",
  path: "/dashboard/listings/new",
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, phones } = context.get(requestContext);
  const user = await signedIn.user({ request, context });
  const atLimit = (await countOwnerListings(db, user.id)) >= MAX_LISTINGS_PER_OWNER;
  // An unconfirmed address may prepare but not post (ADR 066): the dialog says so instead of the form.
  const confirmEmail = confirmEmailBannerOf(user, request);
  const profile = { name: user.name, phone: user.phone };
  return { atLimit, confirmEmail, profile, tiles: mapTiles(), phones: await phoneCheckFor({ db, phones }, user.id) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db, log, storage, phones, clientIp } = context.get(requestContext);
  const write = await signedIn.write({ request, context });
  if (!write.ok) return refuse({ key: "listingForm.errors.origin" }, 403);
  const { user } = write;
  // 'Your listing is now live' is only ever true for a confirmed address (ADR 066).
  if (!user.emailConfirmed) return refuse({ key: "listingForm.errors.confirmFirst" }, 403, { confirmFirst: true });
  const read = readListingSubmission(await readBody(request, LISTING_FORM_BODY), user);
  if (!read.submission) return read.answer;
  const { submission } = read;

  try {
    // An owner at 3 ads is told so before any code is texted (createOwnerListing counts again).
    if ((await countOwnerListings(db, user.id)) >= MAX_LISTINGS_PER_OWNER)
      return savedAnswer(submission, fail("listing.limit_reached", { field: "photos" }), "posted");
    // A number this owner has not confirmed by SMS waits for its code (ADR 076).
    const waiting = await holdForPhoneCode({ db, storage, phones, clientIp }, user, submission, "create");
    if (waiting) return waiting;
    // The network it came from counts for the scam checks (ADR 077).
    const poster = { ...user, ip: clientIp };
    const result = await createOwnerListing(db, storage, poster, submission.values, await submittedPhotos(submission));
    if (result.ok) log.info({ listingId: result.listing.id, held: result.held }, "listing posted");
    return savedAnswer(submission, result, "posted");
  } catch (error) {
    log.error({ err: error }, "posting a listing failed");
    return unavailable(submission, "listingForm.errors.unavailable");
  }
}

/** A dialog over My Ads, also a page of its own. */
export default function NewListing({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as ListingActionResult | undefined;
  const state = result && "errors" in result ? result : undefined;
  const atLimit = (loaderData.atLimit && !result) || state?.limitReached;
  const confirmFirst = loaderData.confirmEmail ?? (state?.confirmFirst ? { email: "", notice: null } : null);
  return (
    <DashboardDialog labelledBy="new-listing-heading" title={t("listingForm.heading")}>
      {confirmFirst ? (
        <div className="space-y-4" data-testid="confirm-first">
          <Banner variant="error" title={t("listingForm.confirmTitle")}>
            {t("listingForm.errors.confirmFirst")}
          </Banner>
          {loaderData.confirmEmail ? (
            <ConfirmEmailBanner {...loaderData.confirmEmail} back="/dashboard/listings/new" />
          ) : null}
          <ButtonLink to="/dashboard" variant="secondary">
            {t("listingForm.back")}
          </ButtonLink>
        </div>
      ) : atLimit ? (
        <div className="space-y-4">
          {state?.limitReached ? (
            <Banner variant="error" title={t("listingForm.errorTitle")}>
              {t(state.first.key)}
            </Banner>
          ) : null}
          <Banner variant="warning" title={t("listingForm.limitTitle")}>
            {t("listingForm.limitReached")}
          </Banner>
          <ButtonLink to="/dashboard" variant="secondary">
            {t("listingForm.back")}
          </ButtonLink>
        </div>
      ) : (
        <>
          <p className="text-slate-700">{t("listingForm.intro")}</p>
          <div className="mt-4">
            <ListingForm
              mode="create"
              profile={loaderData.profile}
              result={result}
              tiles={loaderData.tiles}
              phones={loaderData.phones}
            />
          </div>
        </>
      )}
    </DashboardDialog>
  );
}
