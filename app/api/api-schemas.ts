import * as z from "zod";
import { DIRECTORY_META } from "~/directory/universities";
import type { Pagination } from "~/lib/pagination";
import { AMENITIES, API_MAX_LIMIT, GENDERS, PROPERTY_TYPES } from "~/schemas/browse-filters";
import type { ListingChecks } from "~/schemas/listing-checks";
import { BATHROOMS, BILLS, MEALS, RULES } from "~/schemas/listing-facts";
import { type ListingStatus, PUBLIC_PAGE_STATUSES } from "~/schemas/listing-status";
import type { ListingDetail, ListingSummary } from "~/schemas/listing-view";
import type { ApiError } from "./responses";
import type { universityDirectory } from "./universities";

/**
 * The JSON the API answers with, as zod schemas: the OpenAPI document's
 * `components.schemas` are generated from them (app/api/openapi-components.ts),
 * and tests/integration/api.test.ts parses real answers with them, so the
 * document describes every field the handlers return. The compile-time checks
 * at the bottom keep their fields the same as the types the models return.
 */

const date = (description?: string) => z.string().meta({ format: "date-time", ...(description && { description }) });
const nullableFact = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values).nullable();

export const ErrorSchema = z.object({
  error: z.string().meta({ description: "A sentence saying what went wrong." }),
  details: z.array(z.object({ param: z.string(), message: z.string() })).optional(),
});

export const PaginationSchema = z.object({
  page: z.int().min(1),
  limit: z.int().min(1).max(API_MAX_LIMIT),
  total: z.int().min(0).meta({
    description:
      "The number of matches, or when totalIsExact is false a lower bound (10,000; 1,000 with a search or a location): there are more.",
  }),
  totalPages: z
    .int()
    .min(0)
    .meta({ description: "Pages that can be fetched; past the bound they reach its first `total` matches." }),
  hasNext: z.boolean(),
  hasPrev: z.boolean(),
  totalIsExact: z.boolean().meta({ description: "False when counting stopped at the bound." }),
});

export const ListingPhotoSchema = z.object({
  id: z.string(),
  alt: z.string(),
  width: z.int(),
  height: z.int(),
  url: z.string().meta({ description: "The largest WebP variant (site-relative)." }),
  srcSet: z.string(),
  variants: z.array(z.object({ url: z.string(), width: z.int(), height: z.int() })),
});

/** What Bodima checked (ADR 080): each with its date, null (false) when not true. Nobody visits places or meets owners. */
export const ListingChecksSchema = z
  .object({
    phoneConfirmedAt: date(
      "When the owner confirmed the ad's phone number by SMS; null when not, when that was over 180 days ago or the number was taken over, and while the site sends no SMS.",
    ).nullable(),
    emailConfirmed: z.boolean().meta({ description: "The owner's email address was confirmed by its emailed link." }),
    photosCheckedAt: date(
      "When the photos were last checked against other owners' ads and found in none; null when not checked.",
    ).nullable(),
    memberSince: date("When the owner's account was made.").nullable(),
    availabilityConfirmedAt: date(
      "When the owner last said the place is available (posting and renewing count); null when students say it may be let, or when it is not listed.",
    ).nullable(),
  })
  .meta({
    description: "What the site checked, with dates. It does not mean anyone visited, or that the owner is honest.",
  });

export const ListingSummarySchema = z
  .object({
    id: z.string(),
    adNumber: z.string().meta({ description: "Sequential; the first is 1001." }),
    slug: z.string(),
    title: z.string(),
    description: z.string(),
    price: z.int().meta({ description: "Monthly rent in LKR." }),
    keymoneyFee: z.int().nullable().meta({ description: "One-time key money in LKR." }),
    advanceMonths: z
      .int()
      .min(0)
      .max(12)
      .nullable()
      .meta({ description: "Months of rent asked in advance; null when the owner has not said." }),
    deposit: z.int().nullable().meta({ description: "A refundable deposit in LKR; null when none is stated." }),
    moveInCost: z.int().nullable().meta({
      description:
        "What moving in costs in LKR: key money + deposit + the advance months' rent; null while the advance is not stated.",
    }),
    location: z.string().nullable().meta({ description: "Free text or a maps link." }),
    latitude: z
      .number()
      .nullable()
      .meta({ description: "Where the place is, rounded to about 100 m; null when the owner gave no position." }),
    longitude: z.number().nullable().meta({ description: "See latitude." }),
    // The facts students ask first (ADR 051): null means the owner has not said.
    bills: nullableFact(BILLS).meta({ description: "Electricity and water bills." }),
    meals: nullableFact(MEALS).meta({ description: "`available` costs extra." }),
    bathroom: nullableFact(BATHROOMS),
    bedsFree: z
      .int()
      .min(0)
      .nullable()
      .meta({ description: "Beds free now (shared rooms and hostels; null otherwise or when not stated)." }),
    bedsTotal: z.int().min(0).nullable().meta({ description: "Beds in all (see bedsFree)." }),
    curfew: z
      .string()
      .nullable()
      .meta({
        description: "`none`, or the time the gate closes, `HH:MM` (24-hour, Sri Lanka time).",
        examples: ["none", "22:00"],
      }),
    visitors: nullableFact(RULES),
    cooking: nullableFact(RULES),
    university: z.string(),
    faculty: z.string().meta({ default: "Main Campus" }),
    city: z.string().meta({ description: "City code." }),
    cityName: z.string(),
    propertyType: z.enum(PROPERTY_TYPES),
    gender: z.enum(GENDERS),
    amenities: z.array(z.string().meta({ examples: [...AMENITIES] })),
    images: z.array(z.string()).meta({ description: "Photo URLs (site-relative)." }),
    photos: z.array(ListingPhotoSchema),
    status: z.enum(PUBLIC_PAGE_STATUSES as readonly [ListingStatus, ...ListingStatus[]]).meta({
      description: "'let': its owner said it is no longer available (only one ad by its number or slug).",
    }),
    views: z.int(),
    createdAt: date(),
    updatedAt: date(),
    expiresAt: date(),
    availabilityUnconfirmed: z.boolean().meta({
      description:
        "Students said it may already be let, and its owner has not confirmed since: it comes after the other matches.",
    }),
    checks: ListingChecksSchema,
  })
  .meta({ description: "A listing as cards show it. No phone number." });

/** What one ad adds to its summary (the document says `allOf: [ListingSummary, this]`). */
export const ListingDetailExtraSchema = z.object({
  contactName: z.string(),
  contactPhone: z.string(),
  whatsapp: z.boolean().meta({ description: "Its owner said the contact number is on WhatsApp." }),
  viber: z.boolean().meta({ description: "Its owner said the contact number is on Viber." }),
  whatsappPhone: z.string().nullable().meta({
    description: "The mobile number WhatsApp opens when it is not the contact number; null: the contact number.",
  }),
  uniqueViews: z.int(),
  lastViewed: date().nullable(),
  isExpired: z.boolean(),
  isLet: z.boolean().meta({ description: "Its owner said it is no longer available." }),
  isPublic: z.boolean().meta({ description: "Active and not expired." }),
});

export const ListingDetailSchema = ListingSummarySchema.extend(ListingDetailExtraSchema.shape);

export const ListingPageSchema = z.object({ ads: z.array(ListingSummarySchema), pagination: PaginationSchema });

export const ViewStatsSchema = z.object({
  adId: z.string(),
  totalViews: z.int(),
  uniqueViews: z.int(),
  lastViewed: date().nullable(),
  counted: z.boolean(),
});

const dayCounts = {
  views: z.int().min(0),
  saves: z.int().min(0).meta({ description: "Saves to a shortlist, once per browser a day." }),
  calls: z.int().min(0).meta({ description: "Taps on 'Call Now', once per browser a day." }),
  whatsapp: z.int().min(0).meta({ description: "Taps on 'WhatsApp', once per browser a day." }),
  viber: z.int().min(0).meta({ description: "Taps on 'Viber', once per browser a day." }),
};

/** An owner's own ad, per day in Sri Lanka's time zone (ADR 089). */
export const ListingInsightsSchema = z.object({
  listingId: z.int().meta({ description: "The ad number." }),
  days: z
    .array(z.object({ day: z.string().meta({ format: "date", description: "A day in Asia/Colombo." }), ...dayCounts }))
    .meta({ description: "The last 30 days, oldest first, today last; a day with nothing has zeros." }),
  totals: z.object(dayCounts).meta({ description: "The 30 days together." }),
});

export const CitySchema = z.object({
  code: z.string(),
  name: z.string(),
  latitude: z.number().meta({ description: "The town centre, for listings without a position of their own." }),
  longitude: z.number(),
});

export const FacultySchema = z.object({
  id: z.string(),
  name: z.string(),
  city: z.string(),
  cityCode: z.string(),
  isMainCampus: z.boolean(),
  latitude: z.number(),
  longitude: z.number(),
});

export const UniversitySchema = z.object({
  id: z.string(),
  name: z.string(),
  shortName: z.string(),
  city: z.string().meta({ description: "City code of the main campus." }),
  district: z.string(),
  province: z.string(),
  type: z.enum(["public", "private", "defense", "technical"]),
  isActive: z.boolean(),
  faculties: z.array(FacultySchema),
  campuses: z.array(FacultySchema),
  latitude: z.number(),
  longitude: z.number(),
});

export const UniversityDirectorySchema = z.object({
  universities: z.array(UniversitySchema),
  version: z.literal(DIRECTORY_META.version),
  lastUpdated: z.string().meta({ format: "date" }),
  cities: z.array(CitySchema),
});

// The schemas name the same fields as the types the handlers return: adding a
// field to ListingSummary without describing it fails `npm run typecheck`.
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
const sameFields: [
  SameKeys<z.infer<typeof ListingSummarySchema>, ListingSummary>,
  SameKeys<z.infer<typeof ListingDetailSchema>, Omit<ListingDetail, "userId">>,
  SameKeys<z.infer<typeof PaginationSchema>, Pagination>,
  SameKeys<z.infer<typeof ErrorSchema>, ApiError>,
  SameKeys<z.infer<typeof ListingChecksSchema>, ListingChecks>,
  SameKeys<z.infer<typeof UniversityDirectorySchema>, ReturnType<typeof universityDirectory>>,
] = [true, true, true, true, true, true];
void sameFields;
