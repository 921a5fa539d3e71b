// zod/mini: the same rules run in the browser and again on the server.

import * as z from "zod/mini";
import { cityForFaculty, DEFAULT_FACULTY, findFaculty, findUniversity } from "~/directory/universities";
import type { MessageKey } from "~/i18n/keys.generated";
import { coordinatesFromMapLink, isInSriLanka, type LatLng, parseCoordinatePair } from "~/lib/geo/coordinates";
import { isMapLink } from "~/lib/location-link";
import { mobileE164, toE164 } from "~/lib/phone";
import { AMENITIES, GENDERS, type Gender, PROPERTY_TYPES, type PropertyType } from "./browse-filters";
import { parseWith } from "./form-errors";
import {
  BATHROOMS,
  BED_TYPES,
  BILLS,
  CURFEWS,
  FACT_FIELDS,
  type ListingFacts,
  MAX_BEDS,
  MEALS,
  RULES,
} from "./listing-facts";
import type { ListingTerms } from "./listing-view";
// Its error messages are catalogue keys, translated where they are shown.
import "virtual:catalogue/listing-form";

/** Text fields in the order the form shows them (the first failing one leads the summary). */
export const LISTING_TEXT_FIELDS = [
  "title",
  "description",
  "price",
  "keymoneyFee",
  "advanceMonths",
  "deposit",
  "university",
  "faculty",
  "propertyType",
  "gender",
  // The facts students ask first (ADR 051); amenities come between gender and these.
  ...FACT_FIELDS,
  "mapLink",
  "coordinates",
  "exactPosition",
  "location",
  "contactName",
  "contactPhone",
  // Boxes: the contact number is on WhatsApp, on Viber (ADR 087).
  "whatsapp",
  // WhatsApp on a number of its own (ADR 092).
  "whatsappPhone",
  "viber",
] as const;
export type ListingTextField = (typeof LISTING_TEXT_FIELDS)[number];
export type ListingFormField = ListingTextField | "amenities" | "photos";

/** What a browser may send: anything else posted (userId, status, views, slug ...) is never read. */
export type RawListingForm = Partial<Record<ListingTextField, string>> & { amenities?: string[] };

export const LISTING_LIMITS = {
  title: 120,
  description: 5000,
  name: 100,
  phone: 20,
  location: 500,
  mapLink: 500,
  coordinates: 100,
  maxPrice: 10_000_000,
  maxAdvanceMonths: 12,
  maxLinks: 2,
  maxPhotos: 3,
  maxPhotoBytes: 5 * 1024 * 1024,
} as const;

const REQUIRED: MessageKey = "listingForm.errors.required";
const TOO_LONG: MessageKey = "listingForm.errors.tooLong";
const WHOLE_NUMBER: MessageKey = "listingForm.errors.wholeNumber";
const PHONE_PATTERN = /^\+?[0-9][0-9 -]{5,19}$/;
// A whole URL counts once; bare domains (bit.ly/x, example.com) count too.
const LINK_PATTERN = /(?:\bhttps?:\/\/|\bwww\.)\S+|\b[a-z0-9-]+\.(?:com|lk|net|org|info|xyz|io|me|ly)\b/gi;

const requiredText = (max: number) => z.string().check(z.trim(), z.minLength(1, REQUIRED), z.maxLength(max, TOO_LONG));
const optionalText = (max: number) => z.string().check(z.trim(), z.maxLength(max, TOO_LONG));
/** One of the choices, or empty: not stated. */
const choice = (choices: readonly string[]) =>
  z.string().check(
    z.trim(),
    z.refine((v) => v === "" || choices.includes(v), "listingForm.errors.choice"),
  );
const beds = () =>
  z.string().check(
    z.trim(),
    z.refine((v) => v === "" || (/^\d{1,3}$/.test(v) && Number(v) <= MAX_BEDS), "listingForm.errors.beds"),
  );
const rupees = (value: string) => /^\d{1,8}$/.test(value) && Number(value) <= LISTING_LIMITS.maxPrice;

const listingTextSchema = z.object({
  title: requiredText(LISTING_LIMITS.title),
  description: requiredText(LISTING_LIMITS.description),
  price: z.string().check(z.trim(), z.minLength(1, REQUIRED), z.refine(rupees, WHOLE_NUMBER)),
  keymoneyFee: z.string().check(
    z.trim(),
    z.refine((v) => v === "" || rupees(v), WHOLE_NUMBER),
  ),
  // Empty is "not stated": the listing then shows no move-in cost.
  advanceMonths: z.string().check(
    z.trim(),
    z.refine(
      (v) => v === "" || (/^\d{1,2}$/.test(v) && Number(v) <= LISTING_LIMITS.maxAdvanceMonths),
      "listingForm.errors.advanceMonths",
    ),
  ),
  deposit: z.string().check(
    z.trim(),
    z.refine((v) => v === "" || rupees(v), WHOLE_NUMBER),
  ),
  university: z.string().check(
    z.trim(),
    z.minLength(1, REQUIRED),
    z.refine((v) => findUniversity(v) !== undefined, "listingForm.errors.university"),
  ),
  faculty: optionalText(LISTING_LIMITS.name),
  propertyType: z.string().check(
    z.trim(),
    z.refine((v) => (PROPERTY_TYPES as readonly string[]).includes(v), "listingForm.errors.propertyType"),
  ),
  gender: z.string().check(
    z.trim(),
    z.refine((v) => v === "" || (GENDERS as readonly string[]).includes(v), "listingForm.errors.gender"),
  ),
  bills: choice(BILLS),
  meals: choice(MEALS),
  bathroom: choice(BATHROOMS),
  bedsFree: beds(),
  bedsTotal: beds(),
  curfew: choice(CURFEWS),
  visitors: choice(RULES),
  cooking: choice(RULES),
  mapLink: z.string().check(
    z.trim(),
    z.maxLength(LISTING_LIMITS.mapLink, TOO_LONG),
    z.refine((v) => v === "" || isMapLink(v), "listingForm.errors.mapLink"),
  ),
  // Checked with the map link below: either may give the position.
  coordinates: optionalText(LISTING_LIMITS.coordinates),
  // A box: "1" when ticked, nothing otherwise.
  exactPosition: choice(["1"]),
  location: optionalText(LISTING_LIMITS.location),
  contactName: requiredText(LISTING_LIMITS.name),
  contactPhone: z.string().check(
    z.trim(),
    z.minLength(1, REQUIRED),
    z.maxLength(LISTING_LIMITS.phone, TOO_LONG),
    z.refine((v) => PHONE_PATTERN.test(v), "listingForm.errors.phone"),
  ),
  whatsapp: choice(["1"]),
  whatsappPhone: z.string().check(
    z.trim(),
    z.maxLength(LISTING_LIMITS.phone, TOO_LONG),
    z.refine((v) => v === "" || mobileE164(v) !== null, "listingForm.errors.whatsappPhone"),
  ),
  viber: choice(["1"]),
});

/**
 * A validated listing, city derived from the directory (never taken from the
 * browser); location is the map link when given, else the free text, else null.
 */
export type ListingFormData = NewListingInput;

/** What the listing model stores for a new listing: the form's validated values. */
export type NewListingInput = ListingTerms & {
  /** The owner chose to show the exact point; otherwise the public sees it rounded to about 100 m. */
  exactPosition: boolean;
  contactName: string;
  contactPhone: string;
  /** The owner said the contact number is on WhatsApp / on Viber: the page links to a chat (ADR 087). */
  whatsapp: boolean;
  viber: boolean;
  /** The mobile WhatsApp opens when it is not the contact number, as typed; null: the contact number (ADR 092). */
  whatsappPhone?: string | null;
};

export type ListingFormResult =
  | { ok: true; data: ListingFormData; values: Record<ListingTextField, string> }
  | {
      ok: false;
      errors: Partial<Record<ListingFormField, MessageKey>>;
      first: MessageKey;
      values: Record<ListingTextField, string>;
    };

/** Links anywhere in the listing's own text (the separate map link field is not counted). */
export function countLinks(text: string): number {
  return text.match(LINK_PATTERN)?.length ?? 0;
}

/** Reads the fields from a posted form; everything else in it is ignored. */
export function readListingForm(form: FormData): RawListingForm {
  const raw: RawListingForm = {};
  for (const field of LISTING_TEXT_FIELDS) {
    const value = form.get(field);
    raw[field] = typeof value === "string" ? value : "";
  }
  raw.amenities = form.getAll("amenities").filter((v): v is string => typeof v === "string");
  return raw;
}

/**
 * Where the listing is: the typed coordinates ('6.7951, 79.9009'), else the
 * map link's, else unknown. A point outside Sri Lanka is refused on the field
 * that gave it; a short link (maps.app.goo.gl) has no point to read without a
 * network call, so it is accepted and the listing stays without one.
 */
function listingPosition(
  values: Record<ListingTextField, string>,
  errors: Partial<Record<ListingFormField, MessageKey>>,
): LatLng | null {
  const typed = values.coordinates.trim();
  if (typed) {
    const point = parseCoordinatePair(typed);
    if (!point) errors.coordinates ??= "listingForm.errors.coordinates";
    else if (!isInSriLanka(point)) errors.coordinates ??= "listingForm.errors.outsideSriLanka";
    return point && isInSriLanka(point) ? point : null;
  }
  const linked = values.mapLink.trim() ? coordinatesFromMapLink(values.mapLink.trim()) : null;
  if (linked && !isInSriLanka(linked)) {
    errors.mapLink ??= "listingForm.errors.outsideSriLanka";
    return null;
  }
  return linked;
}

export function parseListingForm(raw: RawListingForm): ListingFormResult {
  const values = Object.fromEntries(
    LISTING_TEXT_FIELDS.map((f) => [f, typeof raw[f] === "string" ? raw[f] : ""]),
  ) as Record<ListingTextField, string>;
  const parsed = parseWith(listingTextSchema, LISTING_TEXT_FIELDS, values);
  const errors: Partial<Record<ListingFormField, MessageKey>> = parsed.ok ? {} : { ...parsed.errors };

  const university = findUniversity(values.university);
  const facultyName = values.faculty.trim() || DEFAULT_FACULTY;
  const faculty = university ? findFaculty(university, facultyName) : undefined;
  if (university && !faculty) errors.faculty ??= "listingForm.errors.faculty";

  const amenities = Array.isArray(raw.amenities)
    ? [...new Set(raw.amenities.filter((a) => typeof a === "string"))]
    : [];
  if (amenities.some((a) => !(AMENITIES as readonly string[]).includes(a)))
    errors.amenities = "listingForm.errors.amenities";

  const position = listingPosition(values, errors);
  // Beds belong to shared rooms and hostels; free beds cannot outnumber the beds.
  const counted = BED_TYPES.includes(values.propertyType.trim());
  const bedsFree = counted && /^\d+$/.test(values.bedsFree.trim()) ? Number(values.bedsFree.trim()) : null;
  const bedsTotal = counted && /^\d+$/.test(values.bedsTotal.trim()) ? Number(values.bedsTotal.trim()) : null;
  if (bedsFree !== null && bedsTotal !== null && bedsFree > bedsTotal)
    errors.bedsFree ??= "listingForm.errors.bedsFree";

  const text = [values.title, values.description, values.location, values.contactName].join("\n");
  if (countLinks(text) > LISTING_LIMITS.maxLinks) errors.description ??= "listingForm.errors.tooManyLinks";

  // Amenities come right after gender on the form.
  const afterGender = LISTING_TEXT_FIELDS.indexOf("gender") + 1;
  const order: ListingFormField[] = [
    ...LISTING_TEXT_FIELDS.slice(0, afterGender),
    "amenities",
    ...LISTING_TEXT_FIELDS.slice(afterGender),
  ];
  const firstField = order.find((f) => errors[f]);
  if (firstField || !parsed.ok || !university || !faculty) {
    // The spec's one message for missing required fields leads whenever any is missing.
    const required = Object.values(errors).includes(REQUIRED) ? REQUIRED : undefined;
    return { ok: false, errors, first: required ?? errors[firstField!] ?? REQUIRED, values };
  }
  const v = parsed.data;
  return {
    ok: true,
    values,
    data: {
      title: v.title,
      description: v.description,
      price: Number(v.price),
      keymoneyFee: v.keymoneyFee === "" ? null : Number(v.keymoneyFee),
      advanceMonths: v.advanceMonths === "" ? null : Number(v.advanceMonths),
      deposit: v.deposit === "" ? null : Number(v.deposit),
      university: university.name,
      faculty: faculty.name,
      city: cityForFaculty(university, faculty.name),
      propertyType: v.propertyType as PropertyType,
      gender: (v.gender || "any") as Gender,
      amenities: AMENITIES.filter((a) => amenities.includes(a)),
      location: v.mapLink || v.location || null,
      latitude: position?.latitude ?? null,
      longitude: position?.longitude ?? null,
      exactPosition: v.exactPosition === "1",
      contactName: v.contactName,
      contactPhone: v.contactPhone,
      whatsapp: v.whatsapp === "1",
      viber: v.viber === "1",
      whatsappPhone: ownWhatsappNumber(v.whatsappPhone, v.contactPhone),
      bills: (v.bills || null) as ListingFacts["bills"],
      meals: (v.meals || null) as ListingFacts["meals"],
      bathroom: (v.bathroom || null) as ListingFacts["bathroom"],
      bedsFree: counted ? bedsFree : null,
      bedsTotal: counted ? bedsTotal : null,
      curfew: v.curfew || null,
      visitors: (v.visitors || null) as ListingFacts["visitors"],
      cooking: (v.cooking || null) as ListingFacts["cooking"],
    },
  };
}

/** A WhatsApp number typed apart from the contact number, or null when none (or the same number) was typed. */
function ownWhatsappNumber(typed: string, contactPhone: string): string | null {
  return typed === "" || mobileE164(typed) === toE164(contactPhone) ? null : typed;
}
