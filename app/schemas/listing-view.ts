// What the server sends the browser about listings: the shapes the models
// return and the views the presenters (app/pages/) write for the components.
// Types only, so both sides may import them (docs/decisions/024-layers.md).

import type { LocationLink as LocationLinkParts } from "~/lib/location-link";
import type { TextLanguage } from "~/lib/text-language";
import type { Gender, PropertyType } from "~/schemas/browse-filters";
import type { ListingChecks } from "./listing-checks";
import type { ListingFacts } from "./listing-facts";
import type { ListingStatus } from "./listing-status";

/** A stated fact on the listing page, with the icon its kind shows. */
export type FactLine = { kind: "bills" | "meals" | "bathroom" | "beds" | "curfew"; text: string };
/** 'What Bodima checked' (app/pages/checks.server.ts): a dated line per check that is true, and what nobody checked. */
export type ChecksView = { heading: string; lines: string[]; notChecked: string };

/** A chat with the owner beside 'Call Now' (ADR 087): its words and link written by the server. */
/** `ping`: where a tap on it is counted for the owner's figures (ADR 089). */
export type ChatLink = { kind: "whatsapp" | "viber"; label: string; href: string; hint: string | null; ping: string };

/** The safety notice's words, written by the server (the page's JavaScript carries no keys for them). */
export type SafetyView = { heading: string; intro: string; items: string[]; disclaimer: string };

/** The facts students ask first, written by the server (app/pages/facts.server.ts). */
export type FactsView = { lines: FactLine[]; rules: string[]; notStated: string | null };

export type ListingPhoto = {
  id: string;
  alt: string;
  width: number;
  height: number;
  /** Largest variant. */
  url: string;
  srcSet: string;
  variants: { url: string; width: number; height: number }[];
  /**
   * With data saver on (ADR 090): the words of the tap that shows the photo,
   * which waits in a closed <details>; `url` is then its smallest size and
   * `srcSet` empty.
   */
  tapToShow?: string;
};

/**
 * What an owner says of a listing and a student reads of it: its words and
 * money (the facts students ask first, ADR 051, null while not stated), where
 * it is and whom it is for. The form's values (NewListingInput) and what browse
 * shows (ListingSummary) both hold it.
 */
export type ListingTerms = ListingFacts & {
  title: string;
  description: string;
  price: number;
  keymoneyFee: number | null;
  /** Months of rent asked in advance (0-12); null when not stated. */
  advanceMonths: number | null;
  /** A refundable deposit in LKR; null when not stated. */
  deposit: number | null;
  location: string | null;
  /** The point on the map; null when the owner gave none. Shown rounded to about 100 m unless the owner chose otherwise. */
  latitude: number | null;
  longitude: number | null;
  university: string;
  faculty: string;
  city: string;
  propertyType: PropertyType;
  gender: Gender;
  amenities: string[];
};

/** What browse cards and the list API show (no phone number: it slows scrapers). */
export type ListingSummary = ListingTerms & {
  id: string;
  adNumber: string;
  slug: string;
  /** Key money + deposit + the advance, in LKR; null while the advance is not stated (app/lib/move-in.ts). */
  moveInCost: number | null;
  cityName: string;
  images: string[];
  photos: ListingPhoto[];
  status: ListingStatus;
  views: number;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  /** Students said it may already be let, and its owner has not confirmed since (ADR 057, 064): it sorts after the rest (ADR 059). */
  availabilityUnconfirmed: boolean;
  /** What Bodima checked, with dates (ADR 080). */
  checks: ListingChecks;
};

export type ListingDetail = ListingSummary & {
  contactName: string;
  contactPhone: string;
  /** The owner said the contact number is on WhatsApp / on Viber (ADR 087). */
  whatsapp: boolean;
  viber: boolean;
  /** The mobile WhatsApp opens when it is not the contact number (ADR 092); null: the contact number. */
  whatsappPhone: string | null;
  uniqueViews: number;
  lastViewed: string | null;
  userId: string;
  /** Past expiresAt, or not active: the page says so and browse leaves it out. */
  isExpired: boolean;
  /** Its owner said it is no longer available (status 'let'): the page says so and browse leaves it out. */
  isLet: boolean;
  isPublic: boolean;
};

/**
 * What a card shows. The texts made from the listing's values come written
 * from the server (app/pages/browse-page.server.ts), so the browser needs
 * no formatting code or messages for them.
 */
export type ListingCardView = Pick<ListingSummary, "id" | "slug" | "title" | "university"> & {
  /** The university's name in the reader's language (`university` stays the English value). */
  universityLabel: string;
  photo: ListingPhoto | null;
  /** '3 photos' when there is more than one. */
  photosBadge: string | null;
  /** 'LKR 15,000/month' */
  priceLine: string;
  /** 'Key money: LKR 30,000' */
  keymoneyLine: string | null;
  /** 'Availability unconfirmed' when students said it may be let: why it comes after the rest (ADR 059). */
  doubtLine: string | null;
  /** 'Move-in cost: LKR 105,000 (key money 30,000 + 3 months' rent 75,000)', or null: advance not stated. */
  moveInLine: string | null;
  /** '1.4 km from Faculty of Engineering (new), Mattegoda · about 20 min walk (estimate)' to the faculty chosen in browse, or null. */
  distanceLine: string | null;
  /** 'Bills included', 'Attached bathroom', '2 beds free': up to three. */
  factChips: string[];
  /** What Bodima checked, in a word or two ('Phone confirmed', 'Photos checked'): at most two (ADR 080). */
  badges: string[];
  /** The faculty unless it is the main campus. */
  facultyTag: string | null;
  /** 'Single Room', 'Male preferred' */
  typeLabel: string;
  genderLabel: string;
  /** 'Posted Nov 22, 2026', '12 views' */
  postedLine: string;
  viewsLine: string;
};

/**
 * What the listing page sends to the browser (no owner id or e-mail). Texts
 * and links made from the listing's values come written from the server
 * (app/pages/listing-page.server.ts), so the browser needs no formatting or
 * link code, nor messages, for them.
 */
export type ListingView = Pick<
  ListingDetail,
  | "adNumber"
  | "slug"
  | "title"
  | "description"
  | "price"
  | "keymoneyFee"
  | "location"
  | "university"
  | "faculty"
  | "cityName"
  | "propertyType"
  | "gender"
  | "amenities"
  | "photos"
  | "views"
  | "createdAt"
  | "contactName"
  | "contactPhone"
  | "isExpired"
  | "isLet"
> & {
  /** 'Availability confirmed 3 days ago': the owner's last confirmation (posting, renewing, 'Still available'). */
  confirmedLine: string;
  /** Students said it may already be let: the page says so (ADR 057). */
  availabilityUnconfirmed: boolean;
  /** The one banner the page shows, written by the server: expired, no longer available, or doubted by students. */
  notice: { kind: "expired" | "let" | "unconfirmed"; title: string; text: string } | null;
  /** The university's and the city's names in the reader's language (the values stay English). */
  universityLabel: string;
  cityLabel: string;
  /** 'LKR 15,000/month', 'Key money: LKR 30,000' */
  priceLine: string;
  keymoneyLine: string | null;
  /** 'Move-in cost: LKR 105,000 (key money 30,000 + 3 months' rent 75,000)', or null: advance not stated. */
  moveInLine: string | null;
  /** 'Most single rooms near University of Moratuwa: LKR 12,000–18,000', or null: fewer than 5 like it. */
  typicalRentLine: string | null;
  /** '1.4 km from Faculty of Engineering, Mattegoda · about 20 min walk (estimate)', or from the city's centre. */
  distanceLine: string | null;
  /** Bills, meals, bathroom, beds, curfew, the house rules, and what is not stated (ADR 051). */
  facts: FactsView;
  /** What Bodima checked, and what nobody did (ADR 080). */
  checks: ChecksView;
  safety: SafetyView;
  /** 'Nov 22, 2026' */
  postedText: string;
  /** '1,204 views' */
  viewsLine: string;
  /** 'Single Room', 'Female Only' */
  typeLabel: string;
  genderLabel: string;
  /** The faculty unless it is the main campus. */
  facultyTag: string | null;
  /** A dialable tel: link, or null ('Not provided'). */
  phoneHref: string | null;
  /** Where a tap on 'Call Now' is counted (ADR 089); null without a phone. */
  callPing: string | null;
  /** WhatsApp and Viber, as the owner ticked them, for a mobile number only (ADR 087). */
  chatLinks: ChatLink[];
  locationLink: LocationLinkParts;
  /** The language of the title and description together, by script (JSON-LD inLanguage). */
  textLanguage: TextLanguage;
  /** The `lang` of the title and of the description where it differs from the page's, else null. */
  titleLang: TextLanguage | null;
  descriptionLang: TextLanguage | null;
};
