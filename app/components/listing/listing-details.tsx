import { buttonClasses } from "~/components/ui/button";
import { PhoneIcon } from "~/components/ui/icons";
import { useTranslation } from "~/i18n";
import type { LocationLink as LocationLinkParts } from "~/lib/location-link";
import type { ChatLink, ListingView } from "~/schemas/listing-view";
import "virtual:catalogue/listing";

export function PriceLine({
  priceLine,
  keymoneyLine,
  compact = false,
}: {
  priceLine: string;
  keymoneyLine: string | null;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="min-w-0">
      <p
        className={compact ? "whitespace-nowrap text-lg font-bold text-slate-900" : "text-2xl font-bold text-slate-900"}
      >
        {priceLine}
      </p>
      {keymoneyLine ? (
        <p className="text-sm text-slate-700">
          {keymoneyLine} <span className="text-slate-600">({t("listing.price.keyMoneyNote")})</span>
        </p>
      ) : null}
    </div>
  );
}

/**
 * A tap on a contact link, counted for its owner (ADR 089): the link's `ping`
 * attribute names the count endpoint, which browsers without this script ping
 * themselves where they can. Here it goes as a beacon (every browser), and the
 * attribute is dropped so the same tap is not sent twice.
 */
function countTap({ currentTarget: link }: { currentTarget: HTMLAnchorElement }) {
  const url = link.getAttribute("ping");
  if (url) {
    link.removeAttribute("ping");
    navigator.sendBeacon(url);
  }
}

export function CallNowLink({
  href,
  ping,
  size = "lg",
  className = "",
}: {
  href: string | null;
  ping: string | null;
  size?: "md" | "lg";
  className?: string;
}) {
  const { t } = useTranslation();
  if (!href) return <p className={`text-sm text-slate-600 ${className}`}>{t("listing.phoneNotProvided")}</p>;
  return (
    <a href={href} ping={ping ?? undefined} onClick={countTap} className={buttonClasses("primary", size, className)}>
      <PhoneIcon className="h-5 w-5" />
      {t("listing.callNow")}
    </a>
  );
}

/** WhatsApp and Viber beside 'Call Now' (ADR 087): plain links, their words from the server. */
export function ChatLinks({ links }: { links: ChatLink[] }) {
  return links.map((link) => (
    <a
      key={link.kind}
      href={link.href}
      ping={link.ping}
      onClick={countTap}
      title={link.hint ?? undefined}
      className={buttonClasses("secondary")}
    >
      {link.label}
    </a>
  ));
}

export function LocationLink({ link }: { link: LocationLinkParts }) {
  const { t } = useTranslation();
  if (!link.href) return <span>{t("listing.locationNotSpecified")}</span>;
  return (
    <a
      href={link.href}
      target="_blank"
      rel="noopener noreferrer"
      className="break-words font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800"
    >
      {link.label ?? t("listing.viewLocation")}
      <span className="sr-only"> {t("listing.opensInNewTab")}</span>
    </a>
  );
}

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 border-b border-slate-100 py-2 sm:flex-row sm:gap-4">
      <dt className="text-sm text-slate-600 sm:w-36 sm:shrink-0">{term}</dt>
      <dd className="text-slate-900">{children}</dd>
    </div>
  );
}

export function PropertyDetails({ listing }: { listing: ListingView }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="details-heading">
      <h2 id="details-heading" className="text-lg font-semibold">
        {t("listing.details.heading")}
      </h2>
      <dl className="mt-2">
        <Detail term={t("listing.details.type")}>{listing.typeLabel}</Detail>
        <Detail term={t("listing.details.gender")}>{listing.genderLabel}</Detail>
        <Detail term={t("listing.details.location")}>
          <LocationLink link={listing.locationLink} />
        </Detail>
        <Detail term={t("listing.details.university")}>
          {listing.universityLabel}
          {listing.facultyTag ? `, ${listing.facultyTag}` : ""}
        </Detail>
        <Detail term={t("listing.details.posted")}>
          <time dateTime={listing.createdAt}>{listing.postedText}</time>
        </Detail>
        <Detail term={t("listing.details.adNumber")}>{listing.adNumber}</Detail>
      </dl>
      <p className="mt-3 text-sm text-slate-600" data-testid="view-count">
        {listing.viewsLine}
      </p>
    </section>
  );
}

export function AmenityList({ amenities }: { amenities: string[] }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="amenities-heading">
      <h2 id="amenities-heading" className="text-lg font-semibold">
        {t("listing.amenities")}
      </h2>
      {amenities.length > 0 ? (
        <ul className="mt-2 flex flex-wrap gap-2">
          {amenities.map((amenity) => (
            <li
              key={amenity}
              className="rounded-full border border-brand-200 bg-brand-50 px-3 py-1 text-sm text-brand-900"
            >
              {amenity}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-slate-600">{t("listing.noAmenities")}</p>
      )}
    </section>
  );
}

export function ContactCard({ listing }: { listing: ListingView }) {
  const { t } = useTranslation();
  const href = listing.phoneHref;
  return (
    <section aria-labelledby="contact-heading">
      <h2 id="contact-heading" className="text-lg font-semibold">
        {t("listing.contact.heading")}
      </h2>
      <dl className="mt-2">
        <Detail term={t("listing.contact.person")}>{listing.contactName}</Detail>
        <Detail term={t("listing.contact.phone")}>
          {href ? (
            <a href={href} className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800">
              {listing.contactPhone}
            </a>
          ) : (
            listing.contactPhone
          )}
        </Detail>
      </dl>
    </section>
  );
}
