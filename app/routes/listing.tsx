import { data, Link, redirect } from "react-router";
import { ListingGallery } from "~/components/listing/listing-gallery";
import {
  AmenityList,
  CallNowLink,
  ContactCard,
  type ListingView,
  MobileCallBar,
  PriceLine,
  PropertyDetails,
} from "~/components/listing/listing-details";
import { ListingNotFound } from "~/components/listing/listing-not-found";
import { SafetyNotice } from "~/components/listing/safety-notice";
import { Banner } from "~/components/ui/banner";
import { ButtonLink } from "~/components/ui/button";
import { FlagIcon } from "~/components/ui/icons";
import { DEFAULT_FACULTY, findUniversity } from "~/directory/universities";
import { t, useTranslation } from "~/i18n";
import { breadcrumbJsonLd, jsonLdMeta, pageMeta } from "~/lib/seo";
import { findListingBySlug } from "~/models/listing.server";
import { trackListingView } from "~/models/view-tracking.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/listing";
import "virtual:catalogue/listing";

const META_DESCRIPTION_LENGTH = 120;

function metaDescription(text: string): string {
  return Array.from(text.replace(/\s+/g, " ").trim()).slice(0, META_DESCRIPTION_LENGTH).join("");
}

function universityPath(university: string): string {
  return `/university/${encodeURIComponent(findUniversity(university)?.id ?? university)}`;
}

function reportPath(adNumber: string): string {
  return `/contact?subject=${encodeURIComponent("Report an Issue")}&listing=${encodeURIComponent(adNumber)}`;
}

function absolute(siteUrl: string, path: string): string {
  return path.startsWith("http") ? path : `${siteUrl}${path}`;
}

/** schema.org Product with a monthly Offer: the rent, in LKR, while the ad is live. */
function offerJsonLd(siteUrl: string, listing: ListingView): Record<string, unknown> {
  const url = `${siteUrl}/listing/${listing.slug}`;
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: listing.title,
    description: metaDescription(listing.description),
    url,
    sku: listing.adNumber,
    category: t(`listing.propertyType.${listing.propertyType}`),
    ...(listing.photos.length > 0 ? { image: listing.photos.map((p) => absolute(siteUrl, p.url)) } : {}),
    offers: {
      "@type": "Offer",
      url,
      price: listing.price,
      priceCurrency: "LKR",
      availability: listing.isExpired ? "https://schema.org/Discontinued" : "https://schema.org/InStock",
      priceSpecification: {
        "@type": "UnitPriceSpecification",
        price: listing.price,
        priceCurrency: "LKR",
        unitCode: "MON",
        unitText: "month",
      },
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const siteName = loaderData?.siteName ?? "Bodima";
  const listing = loaderData?.listing;
  if (!loaderData || !listing) {
    return [{ title: t("listing.meta.notFoundTitle", { siteName }) }, { name: "robots", content: "noindex" }];
  }
  const { siteUrl } = loaderData;
  const path = `/listing/${listing.slug}`;
  return [
    ...pageMeta({
      title: `${listing.title} | ${siteName}`,
      description: metaDescription(listing.description),
      siteName,
      siteUrl,
      path,
      image: listing.photos[0]?.url ?? null,
      type: "article",
    }),
    jsonLdMeta(
      breadcrumbJsonLd(siteUrl, [
        { name: t("listing.breadcrumb.home"), path: "/" },
        { name: t("listing.breadcrumb.browse"), path: "/browse" },
        { name: listing.university, path: universityPath(listing.university) },
        { name: listing.title, path },
      ]),
    ),
    jsonLdMeta(offerJsonLd(siteUrl, listing)),
  ];
};

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { db, env, secrets } = context.get(requestContext);
  const site = { siteName: env.SITE_NAME, siteUrl: env.siteUrl };
  const found = await findListingBySlug(db, params.slug);
  if (!found) return data({ ...site, listing: null }, { status: 404 });
  // An old slug (the title changed) still finds the ad by its number: send
  // people and search engines to the current address.
  if (found.slug !== params.slug) throw redirect(`/listing/${found.slug}`, 301);

  const tracked = await trackListingView(db, request, Number(found.id), {
    visitorSalt: secrets.visitorSalt,
    secure: env.siteUrl.startsWith("https:"),
  });
  const listing: ListingView = {
    adNumber: found.adNumber,
    slug: found.slug,
    title: found.title,
    description: found.description,
    price: found.price,
    keymoneyFee: found.keymoneyFee,
    location: found.location,
    university: found.university,
    faculty: found.faculty,
    cityName: found.cityName,
    propertyType: found.propertyType,
    gender: found.gender,
    amenities: found.amenities,
    photos: found.photos,
    views: tracked?.views ?? found.views,
    createdAt: found.createdAt,
    contactName: found.contactName,
    contactPhone: found.contactPhone,
    isExpired: found.isExpired,
  };
  return data({ ...site, listing }, { headers: tracked?.headers });
}

export default function ListingPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { listing, siteName } = loaderData;
  if (!listing) return <ListingNotFound />;

  const place = [listing.university, listing.faculty !== DEFAULT_FACULTY ? listing.faculty : null, listing.cityName]
    .filter(Boolean)
    .join(" · ");

  return (
    <div className="mx-auto max-w-6xl px-4 pt-4 lg:pb-12">
      <nav aria-label={t("listing.breadcrumb.label")} className="text-sm text-slate-600">
        <ol className="flex flex-wrap items-center gap-x-2">
          <li>
            <Link to="/" className="underline-offset-2 hover:underline">
              {t("listing.breadcrumb.home")}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li>
            <Link to="/browse" className="underline-offset-2 hover:underline">
              {t("listing.breadcrumb.browse")}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li>
            <Link to={universityPath(listing.university)} className="underline-offset-2 hover:underline">
              {listing.university}
            </Link>
          </li>
        </ol>
      </nav>

      {listing.isExpired ? (
        <Banner variant="warning" title={t("listing.expired.title")} className="mt-4">
          {t("listing.expired.text")}
        </Banner>
      ) : null}

      <div className="mt-4 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-8">
        <div className="min-w-0 space-y-4 lg:col-start-1">
          <ListingGallery photos={listing.photos} title={listing.title} />
          <div>
            <h1 className="text-2xl font-bold break-words sm:text-3xl">{listing.title}</h1>
            <p className="mt-1 text-slate-700">{place}</p>
          </div>
        </div>

        <aside className="lg:col-start-2 lg:row-span-3 lg:row-start-1">
          <div className="space-y-4 rounded-xl border border-slate-200 p-4 lg:sticky lg:top-4">
            <PriceLine price={listing.price} keymoneyFee={listing.keymoneyFee} />
            <div className="hidden lg:block">
              <CallNowLink phone={listing.contactPhone} className="w-full" />
            </div>
            <ContactCard listing={listing} />
          </div>
        </aside>

        <div className="min-w-0 space-y-6 lg:col-start-1">
          <section aria-labelledby="description-heading">
            <h2 id="description-heading" className="text-lg font-semibold">
              {t("listing.description")}
            </h2>
            <p className="mt-2 whitespace-pre-line break-words text-slate-800">{listing.description}</p>
          </section>
          <AmenityList amenities={listing.amenities} />
          <PropertyDetails listing={listing} />
        </div>

        <div className="min-w-0 space-y-4 lg:col-start-1">
          <SafetyNotice siteName={siteName} />
          <div>
            <ButtonLink to={reportPath(listing.adNumber)} variant="secondary" className="w-full sm:w-auto">
              <FlagIcon className="h-5 w-5" />
              {t("listing.report")}
            </ButtonLink>
            <p className="mt-1 text-sm text-slate-600">{t("listing.reportHint")}</p>
          </div>
        </div>
      </div>

      <MobileCallBar listing={listing} />
    </div>
  );
}
