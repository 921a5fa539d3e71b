import { preload } from "react-dom";
import { Link } from "react-router";
import { SaveButton } from "~/components/shortlist/save-button";
import { MapPinIcon, NoPhotoIcon } from "~/components/ui/icons";
import { tapPhoto } from "~/components/ui/tap-photo";
import { useTranslation } from "~/i18n";
import type { ListingCardView } from "~/schemas/listing-view";
import "virtual:catalogue/browse";

export type ListingCardProps = {
  listing: ListingCardView;
  /** Cards in the first screenful load their photo at once (it is the page's largest paint). */
  eager?: boolean;
  /** The `sizes` attribute for the photo; the default suits a 1/2/3-column grid. */
  sizes?: string;
  headingLevel?: "h2" | "h3";
};

const DEFAULT_SIZES = "(min-width: 1280px) 300px, (min-width: 640px) 50vw, 100vw";

/**
 * A listing in a grid: photo, price, key money, title, university, what Bodima
 * checked (at most two badges), room type, who it suits, posted date and views. The title link covers the whole card;
 * the owner's phone number is never shown here (it is only on the listing page).
 */
export function ListingCard({ listing, eager = false, sizes = DEFAULT_SIZES, headingLevel = "h3" }: ListingCardProps) {
  const { t } = useTranslation();
  const href = `/listing/${listing.slug}`;
  const { photo, facultyTag } = listing;
  const Heading = headingLevel;
  // The first screenful's photos are the largest paint: hinted in <head>, before the parser reaches them.
  // A photo on a tap (data saver) is neither hinted nor loaded at once.
  const atOnce = eager && !photo?.tapToShow;
  if (atOnce && photo)
    preload(photo.url, {
      as: "image",
      imageSrcSet: photo.srcSet || undefined,
      imageSizes: sizes,
      fetchPriority: "high",
    });

  return (
    <article className="relative flex h-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition-shadow focus-within:ring-2 focus-within:ring-brand-600 hover:shadow-md">
      <div className="relative aspect-[4/3] bg-slate-100">
        {photo ? (
          tapPhoto(
            photo.tapToShow,
            <img
              src={photo.url}
              srcSet={photo.srcSet || undefined}
              sizes={sizes}
              width={photo.width}
              height={photo.height}
              alt={photo.alt}
              loading={atOnce ? "eager" : "lazy"}
              fetchPriority={atOnce ? "high" : undefined}
              decoding="async"
              className="h-full w-full object-cover"
            />,
          )
        ) : (
          <div className="flex h-full w-full flex-col items-center justify-center gap-2 text-slate-500">
            <NoPhotoIcon />
            <span className="text-sm">{t("browse.card.noPhoto")}</span>
          </div>
        )}
        {listing.photosBadge ? (
          <span className="absolute right-2 bottom-2 rounded-md bg-slate-900/80 px-2 py-1 text-xs font-medium text-white">
            {listing.photosBadge}
          </span>
        ) : null}
      </div>

      <div className="flex flex-1 flex-col gap-2 p-4">
        <p className="text-lg font-bold text-slate-900">{listing.priceLine}</p>
        {listing.keymoneyLine ? <p className="-mt-1 text-sm text-slate-700">{listing.keymoneyLine}</p> : null}
        {listing.moveInLine ? <p className="-mt-1 text-sm text-slate-700">{listing.moveInLine}</p> : null}
        <Heading className="text-base leading-snug font-semibold">
          {/* The ::after overlay makes the whole card open the listing. */}
          <Link to={href} className="after:absolute after:inset-0 focus-visible:outline-none">
            {listing.title}
          </Link>
        </Heading>
        <p className="text-sm text-slate-700">{listing.universityLabel}</p>
        {listing.distanceLine ? <p className="-mt-1 text-sm text-slate-700">{listing.distanceLine}</p> : null}
        {listing.doubtLine ? (
          <p className="-mt-1 text-sm font-medium text-amber-800" data-testid="card-unconfirmed">
            {listing.doubtLine}
          </p>
        ) : null}
        {listing.badges.length > 0 ? (
          <ul className="flex flex-wrap gap-1.5 text-xs font-medium text-green-900" data-testid="card-badges">
            {listing.badges.map((badge) => (
              <li key={badge} className="rounded-full bg-green-50 px-2 py-0.5">
                {badge}
              </li>
            ))}
          </ul>
        ) : null}
        {listing.factChips.length > 0 ? (
          <ul className="flex flex-wrap gap-1.5 text-xs font-medium text-slate-800">
            {listing.factChips.map((fact) => (
              <li key={fact} className="rounded-full bg-slate-100 px-2 py-0.5">
                {fact}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="flex flex-wrap items-center gap-2 text-sm">
          {facultyTag ? (
            <span className="rounded-full bg-brand-50 px-2.5 py-1 text-xs font-medium text-brand-800">
              {facultyTag}
            </span>
          ) : null}
          <Link
            to={href}
            className="relative z-10 inline-flex min-h-11 items-center gap-1 font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800"
          >
            <MapPinIcon />
            {t("browse.card.seeLocation")}
            <span className="sr-only">: {listing.title}</span>
          </Link>
          <SaveButton id={listing.id} title={listing.title} className="ml-auto" />
        </div>
        <ul className="mt-auto flex flex-wrap gap-x-3 gap-y-1 border-t border-slate-100 pt-3 text-sm text-slate-700">
          <li>{listing.typeLabel}</li>
          <li>{listing.genderLabel}</li>
        </ul>
        <p className="flex flex-wrap justify-between gap-x-3 text-xs text-slate-600">
          <span>{listing.postedLine}</span>
          <span>{listing.viewsLine}</span>
        </p>
      </div>
    </article>
  );
}
