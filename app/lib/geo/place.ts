import { CITIES, findCity, findUniversity } from "~/directory/universities";
import { type LatLng, roundedForPublic } from "./coordinates";

/**
 * Where a listing counts from for distance (ADR 050): its own
 * position as the public sees it (rounded to about 100 m), else its city's
 * centre. Stored with the listing (`placeLatitude`, `placeLongitude`) so the
 * database can filter and order by distance; every write of a listing's
 * position or city writes these too.
 */
export type ListingPlace = { placeLatitude: number; placeLongitude: number };

type Positioned = {
  latitude: number | null;
  longitude: number | null;
  city: string;
  university?: string;
  /** The owner shows the exact point (ADR 052); otherwise it counts rounded, as shown. */
  exactPosition?: boolean;
};

export function listingPlace(listing: Positioned): ListingPlace {
  const own = listing.latitude !== null && listing.longitude !== null;
  const exact = { latitude: listing.latitude ?? 0, longitude: listing.longitude ?? 0 };
  const point: LatLng = own
    ? listing.exactPosition
      ? exact
      : roundedForPublic(exact)
    : (findCity(listing.city) ?? findUniversity(listing.university ?? "") ?? CITIES[0]);
  return { placeLatitude: point.latitude, placeLongitude: point.longitude };
}

/** True when the listing has no position of its own, so any distance to it is approximate. */
export function isApproximate(listing: { latitude: number | null; longitude: number | null }): boolean {
  return listing.latitude === null || listing.longitude === null;
}
