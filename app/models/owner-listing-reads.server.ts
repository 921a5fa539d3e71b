import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { daysLeft } from "~/lib/days-left";
import { coordinatesFromMapLink } from "~/lib/geo/coordinates";
import { isMapLink } from "~/lib/location-link";
import { FACT_FIELDS } from "~/schemas/listing-facts";
import type { ListingTextField } from "~/schemas/listing-form";
import {
  DELETED_STATUS,
  EXPIRED_STATUS,
  HIDDEN_STATUS,
  LET_STATUS,
  LISTED_STATUS,
  type ListingStatus,
  PENDING_STATUS,
} from "~/schemas/listing-status";
import { readReason } from "~/schemas/message";
import type { OwnerListing, OwnerListingStatus } from "~/schemas/my-listing-view";
import { ownerReasonKeys } from "~/schemas/review-reasons";
import { findListingsByIds } from "./listing.server";
import { viewsOf } from "./listing-checks.server";
import { openHoldSignals } from "./listing-review.server";

/**
 * An owner's own listings as they read them: the My Ads list, the edit form's values and the delete
 * confirmation (the writes: owner-listings.server.ts). Someone else's listing is always "not found".
 */

/** The owner's listings, leaving out those they deleted that moderators keep (ADR 020). */
export function ownerListings(db: DB, userId: string) {
  return db.selectFrom("listings").where("userId", "=", userId).where("status", "!=", DELETED_STATUS);
}

/** One of the owner's listings: someone else's, or one they deleted, is not found. */
export function ownListing(db: DB, userId: string, id: number) {
  return ownerListings(db, userId).where("id", "=", id);
}

export type ListingEditForm = {
  id: number;
  slug: string;
  title: string;
  values: Partial<Record<ListingTextField, string>>;
  amenities: string[];
  photos: { id: string; url: string; alt: string }[];
};

/** The owner's listing as the edit form shows it (held or hidden too), or null when it is not theirs (or gone). */
export async function findOwnerListingForm(db: DB, userId: string, id: number): Promise<ListingEditForm | null> {
  // The exact position and the location as the owner gave it, which only they see (ADR 065).
  const exact = await ownListing(db, userId, id)
    .select(["latitude", "longitude", "exactPosition", "ownerLocation"])
    .executeTakeFirst();
  const [listing] = exact ? await findListingsByIds(db, [id]) : [];
  if (!listing) return null;
  const mapLink = exact?.ownerLocation && isMapLink(exact.ownerLocation) ? exact.ownerLocation : "";
  return {
    id,
    slug: listing.slug,
    title: listing.title,
    values: {
      title: listing.title,
      description: listing.description,
      price: String(listing.price),
      keymoneyFee: listing.keymoneyFee === null ? "" : String(listing.keymoneyFee),
      advanceMonths: listing.advanceMonths === null ? "" : String(listing.advanceMonths),
      deposit: listing.deposit === null ? "" : String(listing.deposit),
      university: listing.university,
      faculty: listing.faculty,
      propertyType: listing.propertyType,
      gender: listing.gender,
      mapLink,
      coordinates: exact ? typedCoordinates(exact, mapLink) : "",
      exactPosition: exact?.exactPosition === 1 ? "1" : "",
      location: mapLink ? "" : (exact?.ownerLocation ?? ""),
      contactName: listing.contactName,
      contactPhone: listing.contactPhone,
      whatsapp: listing.whatsapp ? "1" : "",
      viber: listing.viber ? "1" : "",
      whatsappPhone: listing.whatsappPhone ?? "",
      ...Object.fromEntries(FACT_FIELDS.map((field) => [field, String(listing[field] ?? "")])),
    },
    amenities: listing.amenities,
    photos: listing.photos.map((p) => ({ id: p.id, url: p.variants[0]?.url ?? p.url, alt: p.alt })),
  };
}

/** The position as the owner typed it, or "" when there is none or the map link gives it anyway. */
function typedCoordinates(listing: { latitude: number | null; longitude: number | null }, mapLink: string): string {
  if (listing.latitude === null || listing.longitude === null) return "";
  const linked = mapLink ? coordinatesFromMapLink(mapLink) : null;
  if (linked && linked.latitude === listing.latitude && linked.longitude === listing.longitude) return "";
  return `${listing.latitude}, ${listing.longitude}`;
}

/** An 'active' row whose expiry has passed is expired to its owner too, before any job marks it. */
function statusNow(status: ListingStatus, expiresAt: string, now: Date): OwnerListingStatus {
  if (status === HIDDEN_STATUS || status === PENDING_STATUS || status === LET_STATUS) return status;
  if (status === EXPIRED_STATUS || new Date(expiresAt).getTime() <= now.getTime()) return EXPIRED_STATUS;
  return LISTED_STATUS;
}

/** The owner's own listings, newest first, whatever their status (the My Ads list). */
export async function listOwnerListings(db: DB, userId: string, now = currentTime()): Promise<OwnerListing[]> {
  const rows = await ownerListings(db, userId)
    .select(["id", "slug", "title", "status", "createdAt", "expiresAt", "hiddenBy", "hiddenReason"])
    .select((eb) => viewsOf(eb).as("views"))
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .execute();
  const held = await openHoldSignals(
    db,
    rows.filter((row) => row.status === PENDING_STATUS).map((row) => row.id),
  );
  return rows.map((row) => {
    const status = statusNow(row.status, row.expiresAt, now);
    return {
      id: row.id,
      slug: row.slug,
      title: row.title,
      status,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
      daysLeft: status === EXPIRED_STATUS ? 0 : daysLeft(row.expiresAt, now),
      views: Number(row.views ?? 0),
      hiddenReason:
        status === HIDDEN_STATUS && row.hiddenReason !== null
          ? readReason(row.hiddenReason, row.hiddenBy === "reports")
          : null,
      heldReasons: status === PENDING_STATUS ? ownerReasonKeys(held.get(row.id) ?? []) : [],
    };
  });
}

/** One of the owner's listings (for the delete confirmation), or null when it is not theirs. */
export async function findOwnerListing(
  db: DB,
  userId: string,
  id: number,
): Promise<{ id: number; title: string } | null> {
  const row = await ownListing(db, userId, id).select(["id", "title"]).executeTakeFirst();
  return row ?? null;
}
