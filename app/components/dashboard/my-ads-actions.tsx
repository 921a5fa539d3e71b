import type { MouseEvent } from "react";
import { Form, Link, useSubmit } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { useTranslation } from "~/i18n";
import { EXPIRED_STATUS, LET_STATUS, LISTED_STATUS, PUBLIC_PAGE_STATUSES, statusIn } from "~/schemas/listing-status";
import type { OwnerListingStatus } from "~/schemas/my-listing-view";
import "virtual:catalogue/dashboard";

export const editPath = (id: number) => `/dashboard/listings/${id}/edit`;
export const deletePath = (id: number) => `/dashboard/listings/${id}/delete`;
export const renewPath = (id: number) => `/dashboard/listings/${id}/renew`;
export const availabilityPath = (id: number) => `/dashboard/listings/${id}/availability`;

/** What the actions need of a My Ads row (app/components/dashboard/my-ads.tsx passes it). */
type ActionsAd = { id: number; slug: string; title: string; status: OwnerListingStatus };

/**
 * View (only when its public page exists: not for hidden or pending ads), Edit, Delete, 'Still available' and 'No longer available'
 * (active ads; a let one can be brought back) and (for expired ads) Renew. Edit opens the edit
 * dialog over this list (a page of its own without JavaScript). Delete is a link to a
 * confirmation page, so it works without JavaScript; with it, the browser's
 * own confirm() asks instead and the post goes straight away.
 */
export function MyAdActions({ ad }: { ad: ActionsAd }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const onDelete = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    if (window.confirm(t("dashboard.delete.confirm"))) {
      void submit(null, { method: "post", action: deletePath(ad.id) });
    }
  };
  const small = "px-3 py-2 text-sm";
  return (
    <div className="flex flex-wrap gap-2">
      {/* Hidden and pending listings have no public page to view (it answers 404). */}
      {statusIn(PUBLIC_PAGE_STATUSES, ad.status) ? (
        <Link
          to={`/listing/${ad.slug}`}
          aria-label={t("dashboard.myAds.viewLabel", { title: ad.title })}
          className={buttonClasses("secondary", "md", small)}
        >
          {t("dashboard.myAds.view")}
        </Link>
      ) : null}
      <Link
        to={editPath(ad.id)}
        preventScrollReset
        aria-label={t("dashboard.myAds.editLabel", { title: ad.title })}
        className={buttonClasses("secondary", "md", small)}
      >
        {t("dashboard.myAds.edit")}
      </Link>
      {ad.status === LISTED_STATUS || ad.status === LET_STATUS ? (
        <Form method="post" action={availabilityPath(ad.id)} className="flex flex-wrap gap-2">
          {/* Active: confirm or take it out; let: bring it back (ADR 056). */}
          <button
            type="submit"
            name="available"
            value="yes"
            aria-label={t("dashboard.myAds.stillAvailableLabel", { title: ad.title })}
            className={buttonClasses(ad.status === LET_STATUS ? "primary" : "secondary", "md", small)}
          >
            {t("dashboard.myAds.stillAvailable")}
          </button>
          {ad.status === LISTED_STATUS ? (
            <button
              type="submit"
              name="available"
              value="no"
              aria-label={t("dashboard.myAds.noLongerLabel", { title: ad.title })}
              className={buttonClasses("secondary", "md", small)}
            >
              {t("dashboard.myAds.noLonger")}
            </button>
          ) : null}
        </Form>
      ) : null}
      {ad.status === EXPIRED_STATUS ? (
        <Form method="post" action={renewPath(ad.id)}>
          <button
            type="submit"
            aria-label={t("dashboard.myAds.renewLabel", { title: ad.title })}
            className={buttonClasses("primary", "md", small)}
          >
            {t("dashboard.myAds.renew")}
          </button>
        </Form>
      ) : null}
      <Link
        to={deletePath(ad.id)}
        onClick={onDelete}
        aria-label={t("dashboard.myAds.deleteLabel", { title: ad.title })}
        className={buttonClasses("secondary", "md", `${small} border-red-300 text-red-800 hover:bg-red-50`)}
      >
        {t("dashboard.myAds.delete")}
      </Link>
    </div>
  );
}
