import { data, isRouteErrorResponse, useRouteError } from "react-router";
import { signedIn } from "~/auth/guard.server";
import { DashboardDialog } from "~/components/dashboard/dashboard-dialog";
import { ListingForm } from "~/components/listing-form/listing-form";
import { Banner } from "~/components/ui/banner";
import { useTranslation } from "~/i18n";
import { mapTiles } from "~/lib/map-tiles";
import { toE164 } from "~/lib/phone";
import { privatePageMeta } from "~/lib/route-meta";
import { parseAdNumber } from "~/lib/slug";
import { findOwnerListingForm } from "~/models/owner-listing-reads.server";
import { type SaveListingResult, updateOwnerListing } from "~/models/owner-listings.server";
import {
  type ListingActionResult,
  readListingSubmission,
  refuse,
  savedAnswer,
  submittedPhotos,
  unavailable,
} from "~/pages/listing-form.server";
import { holdForPhoneCode, phoneCheckFor } from "~/pages/listing-phone.server";
import { LISTING_FORM_BODY, readBody } from "~/security/body-limit.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/dashboard.listings.$id.edit";
import "virtual:catalogue/listing-form";

export const meta: Route.MetaFunction = privatePageMeta({
  title: "listingForm.edit.metaTitle",
  description: "listingForm.edit.intro",
  path: (loaderData) => `/dashboard/listings/${loaderData.listing.id}/edit`,
});

/** Someone else's listing answers exactly like a missing one. */
const notFound = () => data(null, { status: 404 });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { db, phones } = context.get(requestContext);
  const user = await signedIn.user({ request, context });
  const id = parseAdNumber(params.id);
  const listing = id === null ? null : await findOwnerListingForm(db, user.id, id);
  if (!listing) throw notFound();
  const profile = { name: user.name, phone: user.phone };
  const phoneCheck = await phoneCheckFor({ db, phones }, user.id);
  return {
    listing,
    profile,
    tiles: mapTiles(),
    phones: phoneCheck,
    keepPhone: toE164(listing.values.contactPhone ?? ""),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { db, log, storage, phones, clientIp } = context.get(requestContext);
  const write = await signedIn.write({ request, context });
  if (!write.ok) return refuse({ key: "listingForm.errors.saveOrigin" }, 403);
  const { user } = write;
  const id = parseAdNumber(params.id);
  const listing = id === null ? null : await findOwnerListingForm(db, user.id, id);
  if (id === null || !listing) throw notFound();
  const read = readListingSubmission(await readBody(request, LISTING_FORM_BODY), user, listing.photos);
  if (!read.submission) return read.answer;
  const { submission } = read;

  let result: SaveListingResult;
  try {
    // Moving the ad onto a number this owner has not confirmed by SMS waits for its code (ADR 076).
    const keep = {
      contactPhone: listing.values.contactPhone ?? "",
      whatsappPhone: listing.values.whatsappPhone || null,
    };
    const waiting = await holdForPhoneCode({ db, storage, phones, clientIp }, user, submission, "edit", keep);
    if (waiting) return waiting;
    const poster = { ...user, ip: clientIp };
    result = await updateOwnerListing(db, storage, poster, id, submission.values, await submittedPhotos(submission));
  } catch (error) {
    log.error({ err: error }, "updating a listing failed");
    return unavailable(submission, "listingForm.errors.saveUnavailable");
  }
  if (!result.ok && result.code === "listing.not_found") throw notFound();
  if (result.ok) log.info({ listingId: id, held: result.held }, "listing updated");
  return savedAnswer(submission, result, "updated");
}

/** The post form, filled in, as a dialog over My Ads. */
export default function EditListing({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { listing, profile } = loaderData;
  return (
    <DashboardDialog labelledBy="edit-listing-heading" title={t("listingForm.edit.heading")}>
      <p className="text-slate-700">{t("listingForm.edit.intro")}</p>
      <div className="mt-4">
        <ListingForm
          key={listing.id}
          mode="edit"
          profile={profile}
          initial={listing}
          result={actionData as ListingActionResult | undefined}
          tiles={loaderData.tiles}
          phones={loaderData.phones}
          keepPhone={loaderData.keepPhone}
        />
      </div>
    </DashboardDialog>
  );
}

/** Not the owner's (or gone): said inside the dialog, My Ads stays underneath. Anything else goes up to the dashboard's boundary. */
export function ErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (!isRouteErrorResponse(error) || error.status !== 404) throw error;
  return (
    <DashboardDialog labelledBy="edit-listing-heading" title={t("listingForm.edit.heading")}>
      <Banner variant="error" title={t("listingForm.errors.notFound")}>
        {t("listingForm.edit.notFoundText")}
      </Banner>
    </DashboardDialog>
  );
}
