import { useTranslation } from "~/i18n";
import { formatLkr } from "~/lib/format";
import { locationLink } from "~/lib/location-link";
import type { ListingSummary } from "~/schemas/listing-view";
import "virtual:catalogue/old-browse";

/** The old card shows the first 3 amenities, then '+n more'. */
export const OLD_CARD_AMENITIES = 3;

/** The fields the card shows, so the page ships no more than it needs. */
export type OldCardListing = Pick<
  ListingSummary,
  "id" | "slug" | "title" | "price" | "university" | "location" | "cityName" | "amenities" | "photos"
>;

/** Only the first photo is shown. */
export function toOldCard(ad: ListingSummary): OldCardListing {
  const { id, slug, title, price, university, location, cityName, amenities, photos } = ad;
  return { id, slug, title, price, university, location, cityName, amenities, photos: photos.slice(0, 1) };
}

const COORDINATES = /^-?\d+(\.\d+)?\s*,\s*-?\d+(\.\d+)?$/;

/** A place name to show: the location text, a map link's place name, or else the city. */
function placeName(ad: OldCardListing): string {
  const label = locationLink(ad.location).label;
  return label && !COORDINATES.test(label) ? label : ad.cityName;
}

/**
 * The classic card: a small photo beside the facts. The title link stretches
 * over the whole card so the tap target is large.
 */
export function OldListingCard({ ad }: { ad: OldCardListing }) {
  const { t } = useTranslation();
  const photo = ad.photos[0];
  const thumb = photo?.variants[0];
  const shown = ad.amenities.slice(0, OLD_CARD_AMENITIES);
  const more = ad.amenities.length - shown.length;
  const place = placeName(ad);

  return (
    <article className="relative flex gap-3 rounded-lg border border-slate-300 bg-white p-3 hover:border-brand-600 sm:gap-4">
      <div className="flex h-24 w-24 shrink-0 items-center justify-center overflow-hidden rounded bg-slate-100 text-sm text-slate-600 sm:h-32 sm:w-32">
        {photo ? (
          <img
            src={thumb?.url ?? photo.url}
            srcSet={photo.srcSet}
            sizes="(min-width: 640px) 128px, 96px"
            width={thumb?.width ?? photo.width}
            height={thumb?.height ?? photo.height}
            alt={photo.alt}
            loading="lazy"
            decoding="async"
            className="h-full w-full object-cover"
          />
        ) : (
          t("oldBrowse.noPhoto")
        )}
      </div>
      <div className="min-w-0 flex-1">
        <h2 className="text-base font-semibold leading-snug">
          <a
            href={`/listing/${encodeURIComponent(ad.slug)}`}
            className="text-slate-900 underline-offset-2 after:absolute after:inset-0 after:rounded-lg hover:underline"
          >
            {ad.title}
          </a>
        </h2>
        <p className="mt-1 font-bold text-brand-700">{t("oldBrowse.price", { price: formatLkr(ad.price) })}</p>
        <dl className="mt-1 text-sm text-slate-700">
          <div className="flex gap-1">
            <dt className="sr-only">{t("oldBrowse.university")}</dt>
            <dd>{ad.university}</dd>
          </div>
          <div className="flex gap-1">
            <dt className="sr-only">{t("oldBrowse.location")}</dt>
            <dd className="break-words">{place}</dd>
          </div>
        </dl>
        {shown.length > 0 ? (
          <ul aria-label={t("oldBrowse.amenities")} className="mt-2 flex flex-wrap gap-1 text-xs">
            {shown.map((amenity) => (
              <li key={amenity} className="rounded bg-slate-100 px-2 py-0.5 text-slate-800">
                {amenity}
              </li>
            ))}
            {more > 0 ? (
              <li className="rounded px-1 py-0.5 font-medium text-slate-700">
                {t("oldBrowse.moreAmenities", { count: more })}
              </li>
            ) : null}
          </ul>
        ) : null}
      </div>
    </article>
  );
}
