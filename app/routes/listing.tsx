import { data, Link, redirect, type ShouldRevalidateFunction } from "react-router";
import {
  AmenityList,
  CallNowLink,
  ChatLinks,
  ContactCard,
  PriceLine,
  PropertyDetails,
} from "~/components/listing/listing-details";
import { ListingFacts } from "~/components/listing/listing-facts";
import { ListingGallery } from "~/components/listing/listing-gallery";
import { ListingNotFound } from "~/components/listing/listing-not-found";
import { ReportLink } from "~/components/listing/report-link";
import { SafetyNotice } from "~/components/listing/safety-notice";
import { SaveButton } from "~/components/shortlist/save-button";
import { Banner } from "~/components/ui/banner";
import { useTranslation } from "~/i18n";
import { findListingBySlug } from "~/models/listing.server";
import { typicalRent } from "~/models/price-context.server";
import { photosForSaver } from "~/pages/data-saver.server";
import { listingMeta, listingNotFoundMeta, toListingView, universityPath } from "~/pages/listing-page.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/listing";
import "virtual:catalogue/listing";

// Head tags come ready-made from the loader (app/pages/listing-page.server.ts).
export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

// A report sent from the dialog changes nothing on this page: no reload (and no second view).
// Nor does saving it to the shortlist (the button keeps its own state).
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction?.endsWith("/report") || formAction?.endsWith("/shortlist") ? false : defaultShouldRevalidate;

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, env, locale, phones, dataSaver = false } = context.get(requestContext);
  const site = { siteName: env.SITE_NAME, siteUrl: env.siteUrl };
  const found = await findListingBySlug(db, params.slug);
  if (!found) {
    return data(
      { siteName: site.siteName, listing: null, universityHref: "", meta: listingNotFoundMeta(site) },
      { status: 404 },
    );
  }
  // An old slug (the title changed) still finds the ad by its number: send
  // people and search engines to the current address.
  if (found.slug !== params.slug) throw redirect(`/listing/${found.slug}`, 301);

  // The view is counted around the render (server/pages.ts), so that a page
  // served from the page cache counts too; the count shown is seconds old (a minute under load: ADR 113).
  const typical = await typicalRent(db, found.university, found.propertyType);
  const shown = { ...found, photos: photosForSaver(found.photos, dataSaver) };
  const listing = toListingView(shown, found.views, locale, typical, {
    siteName: site.siteName,
    phonesEnabled: phones.enabled,
    siteUrl: site.siteUrl,
  });
  return {
    siteName: site.siteName,
    listing,
    universityHref: universityPath(listing.university),
    meta: listingMeta(site, listing),
  };
}

export default function ListingPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { listing, universityHref } = loaderData;
  if (!listing) return <ListingNotFound />;

  const place = [listing.universityLabel, listing.facultyTag, listing.cityLabel].filter(Boolean).join(" · ");

  return (
    <div className="mx-auto max-w-6xl px-4 pt-4 lg:pb-12">
      <nav aria-label={t("listing.breadcrumb.label")} className="text-sm text-slate-600">
        <ol className="flex flex-wrap items-center gap-x-2">
          <li>
            <Link to="/" className="inline-flex min-h-6 items-center underline-offset-2 hover:underline">
              {t("listing.breadcrumb.home")}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li>
            <Link to="/browse" className="inline-flex min-h-6 items-center underline-offset-2 hover:underline">
              {t("listing.breadcrumb.browse")}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li>
            <Link to={universityHref} className="inline-flex min-h-6 items-center underline-offset-2 hover:underline">
              {listing.universityLabel}
            </Link>
          </li>
        </ol>
      </nav>

      {/* Expired, let, or doubted by students: at most one, its words from the loader. */}
      {listing.notice ? (
        <Banner
          variant="warning"
          title={listing.notice.title}
          className="mt-4"
          data-testid={`listing-${listing.notice.kind}`}
        >
          {listing.notice.text}
        </Banner>
      ) : null}

      <div className="mt-4 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-8">
        <div className="min-w-0 space-y-4 lg:col-start-1">
          <ListingGallery photos={listing.photos} title={listing.title} slug={listing.slug} />
          <div>
            <h1 lang={listing.titleLang ?? undefined} className="text-2xl font-bold break-words sm:text-3xl">
              {listing.title}
            </h1>
            <p className="mt-1 text-slate-700">{place}</p>
            {listing.distanceLine ? <p className="mt-1 text-sm text-slate-700">{listing.distanceLine}</p> : null}
          </div>
        </div>

        <aside className="lg:col-start-2 lg:row-span-3 lg:row-start-1">
          <div className="space-y-4 rounded-xl border border-slate-200 p-4 lg:sticky lg:top-4">
            <PriceLine priceLine={listing.priceLine} keymoneyLine={listing.keymoneyLine} />
            {listing.moveInLine ? <p className="text-sm text-slate-800">{listing.moveInLine}</p> : null}
            <p className="text-sm text-slate-700" data-testid="listing-confirmed">
              {listing.confirmedLine}
            </p>
            {listing.typicalRentLine ? <p className="text-sm text-slate-600">{listing.typicalRentLine}</p> : null}
            <div className="hidden gap-2 lg:grid">
              <CallNowLink href={listing.phoneHref} ping={listing.callPing} className="w-full" />
              <ChatLinks links={listing.chatLinks} />
            </div>
            {listing.isExpired || listing.isLet ? null : <SaveButton id={listing.adNumber} title={listing.title} />}
            <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">{t("common.payAfterVisit")}</p>
            <ContactCard listing={listing} />
          </div>
        </aside>

        <div className="min-w-0 space-y-6 lg:col-start-1">
          <section aria-labelledby="description-heading">
            <h2 id="description-heading" className="text-lg font-semibold">
              {t("listing.description")}
            </h2>
            <p
              lang={listing.descriptionLang ?? undefined}
              className="mt-2 whitespace-pre-line break-words text-slate-800"
            >
              {listing.description}
            </p>
          </section>
          <ListingFacts facts={listing.facts} />
          <AmenityList amenities={listing.amenities} />
          <PropertyDetails listing={listing} />
          <section aria-labelledby="checks-heading">
            <h2 id="checks-heading" className="text-lg font-semibold">
              {listing.checks.heading}
            </h2>
            <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-800">
              {listing.checks.lines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <p className="mt-2 text-sm text-slate-600">{listing.checks.notChecked}</p>
          </section>
        </div>

        <div className="min-w-0 space-y-4 lg:col-start-1">
          <SafetyNotice safety={listing.safety} />
          <div>
            <ReportLink listing={listing} />
            {listing.isLet || listing.isExpired ? null : (
              <Link
                to={`/listing/${listing.slug}/already-let`}
                className="mt-2 inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline underline-offset-2"
              >
                {t("listing.alreadyLet")}
              </Link>
            )}
            <p className="mt-1 text-sm text-slate-600">{t("listing.reportHint")}</p>
          </div>
        </div>
      </div>

      {/*
        On phones the price and 'Call Now' stay in reach at the bottom of the screen, sticky rather
        than fixed so the bar rests above the footer, with the side panel's line beside them (ADR 077).
        Written here, not in a component: this page's first-load JavaScript is at its budget
        (tests/e2e/budgets.spec.ts), and every wrapper costs bytes.
      */}
      <div
        data-testid="mobile-call-bar"
        className="sticky bottom-0 z-10 -mx-4 mt-6 flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 bg-white px-4 py-3 shadow-[0_-2px_8px_rgba(0,0,0,0.06)] lg:hidden"
      >
        <PriceLine priceLine={listing.priceLine} keymoneyLine={null} compact />
        <CallNowLink href={listing.phoneHref} ping={listing.callPing} size="md" className="shrink-0" />
        <ChatLinks links={listing.chatLinks} />
        <p className="w-full rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">{t("common.payAfterVisit")}</p>
      </div>
    </div>
  );
}
