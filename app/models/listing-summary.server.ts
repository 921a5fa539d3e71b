import type { ExpressionBuilder } from "kysely";
import { noteShownListing } from "~/cache/render-hints.server";
import type { DB } from "~/db/db.server";
import type { Database, ListingRow, PhotoRow } from "~/db/schema";
import { notIndexed } from "~/db/search.server";
import { cityName } from "~/directory/universities";
import { publicPosition } from "~/lib/geo/public-location";
import { photoUrl } from "~/lib/photo-urls";
import type { Gender, PropertyType } from "~/schemas/browse-filters";
import type { ListingFacts } from "~/schemas/listing-facts";
import { LISTED_STATUS } from "~/schemas/listing-status";
import type { ListingPhoto, ListingSummary } from "~/schemas/listing-view";
import { checksOf, type ListingRowWithChecks } from "./listing-checks.server";

/**
 * How a stored listing row and its photo rows become what pages show (a
 * summary), and which rows are public now: shared by the listing finders
 * (listing.server.ts) and search (listing-search.server.ts).
 */
export type PhotoVariant = { width: number; height: number; bytes: number; key: string };

function toPhoto(row: PhotoRow, title: string, index: number): ListingPhoto {
  const variants = (JSON.parse(row.variants) as PhotoVariant[]).map((v) => ({ ...v, url: photoUrl(v.key) }));
  const largest = variants[variants.length - 1];
  return {
    id: row.id,
    alt: row.alt || `${title} – photo ${index + 1}`,
    width: row.width,
    height: row.height,
    url: largest?.url ?? "",
    srcSet: variants.map((v) => `${v.url} ${v.width}w`).join(", "),
    variants: variants.map(({ url, width, height }) => ({ url, width, height })),
  };
}

function parseAmenities(json: string): string[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

export function toSummary(row: ListingRowWithChecks, photos: PhotoRow[], now: Date): ListingSummary {
  if (row.status === LISTED_STATUS) noteShownListing(row.expiresAt);
  const mapped = photos.map((p, i) => toPhoto(p, row.title, i));
  return {
    id: String(row.id),
    adNumber: String(row.id),
    slug: row.slug,
    title: row.title,
    description: row.description,
    price: row.price,
    keymoneyFee: row.keymoneyFee,
    advanceMonths: row.advanceMonths,
    deposit: row.deposit,
    moveInCost: row.moveInCost,
    // Public: written so (listingColumns); the position rounded unless shown exact (ADR 052, 065).
    location: row.location,
    ...publicPosition({ latitude: row.latitude, longitude: row.longitude, exactPosition: row.exactPosition === 1 }),
    ...factsOf(row),
    university: row.university,
    faculty: row.faculty,
    city: row.city,
    cityName: cityName(row.city),
    propertyType: row.propertyType as PropertyType,
    gender: row.gender as Gender,
    amenities: parseAmenities(row.amenities),
    images: mapped.map((p) => p.url),
    photos: mapped,
    status: row.status,
    views: row.views,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    expiresAt: row.expiresAt,
    availabilityUnconfirmed: row.unconfirmedSince !== null,
    checks: checksOf(row, now),
  };
}

/** The stored facts; the database holds only the values the form accepts (app/schemas/listing-facts.ts). */
function factsOf(row: ListingRow): ListingFacts {
  return {
    bills: row.bills as ListingFacts["bills"],
    meals: row.meals as ListingFacts["meals"],
    bathroom: row.bathroom as ListingFacts["bathroom"],
    bedsFree: row.bedsFree,
    bedsTotal: row.bedsTotal,
    curfew: row.curfew,
    visitors: row.visitors as ListingFacts["visitors"],
    cooking: row.cooking as ListingFacts["cooking"],
  };
}

export async function photosFor(db: DB, listingIds: number[]): Promise<Map<number, PhotoRow[]>> {
  const byListing = new Map<number, PhotoRow[]>();
  if (listingIds.length === 0) return byListing;
  const rows = await db
    .selectFrom("listing_photos")
    .selectAll()
    .where("listingId", "in", listingIds)
    .orderBy("listingId")
    .orderBy("position")
    .execute();
  for (const row of rows) {
    const list = byListing.get(row.listingId!) ?? [];
    list.push(row);
    byListing.set(row.listingId!, list);
  }
  return byListing;
}

/**
 * Listed publicly: active and not past its expiry. Nearly every listing is
 * unexpired, so the expiry index never helps here; with full statistics
 * SQLite took it anyway and counted 1,000,000 listings in seconds (ADR 011).
 */
export function isPublicNow(db: DB, eb: ExpressionBuilder<Database, "listings">, now: string) {
  return eb.and([
    eb("listings.status", "=", LISTED_STATUS),
    eb(notIndexed(db, eb.ref("listings.expiresAt")), ">", now),
  ]);
}
