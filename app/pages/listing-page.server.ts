import type { MetaDescriptor } from "react-router";
import { DEFAULT_FACULTY, findUniversity } from "~/directory/universities";
import { activeLocale, t } from "~/i18n";
import { localePath } from "~/i18n/locales";
import { daysSinceConfirmed } from "~/lib/days-left";
import { formatAmount, formatLkr, formatShortDate } from "~/lib/format";
import { locationLink } from "~/lib/location-link";
import { mobileE164 } from "~/lib/phone";
import { breadcrumbJsonLd, jsonLdMeta, pageMeta } from "~/lib/seo";
import { langAttribute, type TextLanguage, textLanguage } from "~/lib/text-language";
import { shownChecks } from "~/models/listing-checks.server";
import type { TypicalRent } from "~/models/price-context.server";
import type { ChatLink, ListingDetail, ListingView, SafetyView } from "~/schemas/listing-view";
import { checksView } from "./checks.server";
import { cityLabel, facultyLabel, universityLabel } from "./directory-labels.server";
import { distanceLine } from "./distance.server";
import { factsView } from "./facts.server";
import { moveInLine } from "./move-in.server";
import "virtual:catalogue/listing";
import "virtual:catalogue/listing-server";

// The listing page's head tags, amounts, dates and links are worked out here,
// on the server, and reach the browser as loader data: no SEO, directory,
// formatting or link code in its JavaScript.

type Site = { siteName: string; siteUrl: string };

const META_DESCRIPTION_LENGTH = 120;

function metaDescription(text: string): string {
  return Array.from(text.replace(/\s+/g, " ").trim()).slice(0, META_DESCRIPTION_LENGTH).join("");
}

/** A dialable tel: link, or null when the stored phone has too few digits ('Not provided'). */
export function telHref(phone: string): string | null {
  const dialable = phone.replace(/[^\d+]/g, "");
  return dialable.replace(/\D/g, "").length >= 7 ? `tel:${dialable}` : null;
}

/**
 * The site's name and whether phone confirmation is on (`phones.enabled`): what the checks panel needs;
 * the site's address for the listing's link in a chat message (ADR 087).
 */
export type ChecksContext = { siteName: string; phonesEnabled: boolean; siteUrl?: string };

/**
 * What the page shows of a listing (no owner id or e-mail); `views` is the
 * count after this visit. The owner's text may be in another language than
 * the page's (`pageLanguage`); it is marked so screen readers read it right.
 */
export function toListingView(
  found: ListingDetail,
  views: number,
  pageLanguage: TextLanguage = "en",
  typical: TypicalRent | null = null,
  context: ChecksContext = { siteName: "Bodima", phonesEnabled: true, siteUrl: "" },
): ListingView {
  return {
    adNumber: found.adNumber,
    slug: found.slug,
    title: found.title,
    description: found.description,
    price: found.price,
    keymoneyFee: found.keymoneyFee,
    location: found.location,
    university: found.university,
    universityLabel: universityLabel(found.university),
    cityLabel: cityLabel(found.cityName),
    faculty: found.faculty,
    cityName: found.cityName,
    propertyType: found.propertyType,
    gender: found.gender,
    amenities: found.amenities,
    photos: found.photos,
    views,
    createdAt: found.createdAt,
    contactName: found.contactName,
    contactPhone: found.contactPhone,
    isExpired: found.isExpired,
    isLet: found.isLet,
    confirmedLine: found.availabilityUnconfirmed
      ? t("listingServer.availability.unconfirmed")
      : t("listingServer.availability.confirmed", { days: daysSinceConfirmed(found.expiresAt) }),
    availabilityUnconfirmed: found.availabilityUnconfirmed,
    notice: noticeOf(found),
    priceLine: t("listingServer.price.perMonth", { amount: formatLkr(found.price) }),
    keymoneyLine: found.keymoneyFee
      ? t("listingServer.price.keyMoney", { amount: formatLkr(found.keymoneyFee) })
      : null,
    moveInLine: moveInLine(found),
    distanceLine: distanceLine(found),
    facts: factsView(found),
    checks: checksView(shownChecks(found.checks, context.phonesEnabled), context.siteName),
    safety: safetyView(context.siteName),
    typicalRentLine: typical ? typicalRentLine(found, typical) : null,
    postedText: formatShortDate(found.createdAt),
    viewsLine: t("listingServer.views", { count: views, formatted: views.toLocaleString("en-US") }),
    typeLabel: t(`listingServer.propertyType.${found.propertyType}`),
    genderLabel: t(`listingServer.gender.${found.gender}`),
    facultyTag: found.faculty && found.faculty !== DEFAULT_FACULTY ? facultyLabel(found.faculty) : null,
    phoneHref: telHref(found.contactPhone),
    callPing: telHref(found.contactPhone) ? tapPing(found.slug, "call") : null,
    chatLinks: chatLinks(found, context.siteName, context.siteUrl ?? ""),
    locationLink: locationLink(found.location, found),
    textLanguage: textLanguage(`${found.title}\n${found.description}`),
    titleLang: langAttribute(found.title, pageLanguage),
    descriptionLang: langAttribute(found.description, pageLanguage),
  };
}

/**
 * WhatsApp and Viber beside 'Call Now' (ADR 087), as the owner ticked them and
 * only for a mobile number: wa.me with a message in the page's language naming
 * the place and its address, and Viber's chat link (a phone without Viber does
 * nothing for it, so its hint says what to do instead).
 */
export function chatLinks(
  found: Pick<ListingDetail, "contactPhone" | "whatsapp" | "whatsappPhone" | "viber" | "title" | "slug">,
  siteName: string,
  siteUrl: string,
): ChatLink[] {
  const e164 = mobileE164(found.contactPhone);
  // WhatsApp may be on a number of its own (ADR 092), confirmed like the contact number.
  const whatsappE164 = found.whatsappPhone ? mobileE164(found.whatsappPhone) : e164;
  const links: ChatLink[] = [];
  if (found.whatsapp && whatsappE164) {
    const url = `${siteUrl}${localePath(activeLocale(), `/listing/${found.slug}`)}`;
    const text = t("listingServer.chat.message", { title: found.title, siteName, url });
    links.push({
      kind: "whatsapp",
      label: t("listingServer.chat.whatsapp"),
      href: `https://wa.me/${whatsappE164.slice(1)}?text=${encodeURIComponent(text)}`,
      hint: null,
      ping: tapPing(found.slug, "whatsapp"),
    });
  }
  if (found.viber && e164)
    links.push({
      kind: "viber",
      label: t("listingServer.chat.viber"),
      href: `viber://chat?number=${encodeURIComponent(e164)}`,
      hint: t("listingServer.chat.viberHint"),
      ping: tapPing(found.slug, "viber"),
    });
  return links;
}

/**
 * The count endpoint a contact link names in its `ping` attribute (ADR 089): one
 * path for every language, since it answers no page.
 */
function tapPing(slug: string, kind: "call" | "whatsapp" | "viber"): string {
  return `/listing/${slug}/contact/${kind}`;
}

// 'Never pay before you have seen the place' stands beside every contact action instead (ADR 077).
const SAFETY_ITEMS = ["visit", "meetOwner", "amenities", "terms", "scamSigns"] as const;

function safetyView(siteName: string): SafetyView {
  return {
    heading: t("listing.safety.heading"),
    intro: t("listing.safety.intro"),
    items: SAFETY_ITEMS.map((item) => t(`listing.safety.items.${item}`)),
    disclaimer: t("listing.safety.disclaimer", { siteName }),
  };
}

/** The banner above the page: expired, no longer available (ADR 056), or students doubt it (ADR 057). */
function noticeOf(found: ListingDetail): ListingView["notice"] {
  if (found.isExpired) return { kind: "expired", title: t("listing.expired.title"), text: t("listing.expired.text") };
  if (found.isLet) return { kind: "let", title: t("listing.let.title"), text: t("listing.let.text") };
  if (found.availabilityUnconfirmed)
    return { kind: "unconfirmed", title: t("listing.unconfirmed.title"), text: t("listing.unconfirmed.text") };
  return null;
}

/** 'Most single rooms near University of Moratuwa: LKR 12,000–18,000': a range, no judgement words. */
function typicalRentLine(found: ListingDetail, { low, high }: TypicalRent): string {
  const range = low === high ? formatLkr(low) : `${formatLkr(low)}–${formatAmount(high)}`;
  return t(`listingServer.typicalRent.${found.propertyType}`, { university: universityLabel(found.university), range });
}

/** The browse page of the listing's university (its directory id when known). */
export function universityPath(university: string): string {
  return `/university/${encodeURIComponent(findUniversity(university)?.id ?? university)}`;
}

function absolute(siteUrl: string, path: string): string {
  return path.startsWith("http") ? path : `${siteUrl}${path}`;
}

/** schema.org Product with a monthly Offer: the rent, in LKR, while the ad is live. */
function offerJsonLd(siteUrl: string, listing: ListingView): Record<string, unknown> {
  const url = `${siteUrl}${localePath(activeLocale(), `/listing/${listing.slug}`)}`;
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: listing.title,
    description: metaDescription(listing.description),
    inLanguage: listing.textLanguage,
    url,
    sku: listing.adNumber,
    category: listing.typeLabel,
    ...(listing.photos.length > 0 ? { image: listing.photos.map((p) => absolute(siteUrl, p.url)) } : {}),
    offers: {
      "@type": "Offer",
      url,
      price: listing.price,
      priceCurrency: "LKR",
      availability:
        listing.isExpired || listing.isLet ? "https://schema.org/Discontinued" : "https://schema.org/InStock",
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

export function listingMeta(site: Site, listing: ListingView): MetaDescriptor[] {
  const { siteName, siteUrl } = site;
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
        { name: listing.universityLabel, path: universityPath(listing.university) },
        { name: listing.title, path },
      ]),
    ),
    jsonLdMeta(offerJsonLd(siteUrl, listing)),
  ];
}

export function listingNotFoundMeta(site: Site): MetaDescriptor[] {
  return [
    { title: t("listingServer.meta.notFoundTitle", { siteName: site.siteName }) },
    { name: "robots", content: "noindex" },
  ];
}
