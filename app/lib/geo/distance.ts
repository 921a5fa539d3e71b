import type { LatLng } from "./coordinates";

/** The Earth's mean radius in km (IUGG), the usual choice for the haversine formula. */
export const EARTH_RADIUS_KM = 6371.0088;

const RADIANS = Math.PI / 180;
const DEGREES = 180 / Math.PI;

/** Straight-line (great-circle) distance in km between two points, by the haversine formula. */
export function distanceKm(a: LatLng, b: LatLng): number {
  const dLat = (b.latitude - a.latitude) * RADIANS;
  const dLng = (b.longitude - a.longitude) * RADIANS;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * RADIANS) * Math.cos(b.latitude * RADIANS) * Math.sin(dLng / 2) ** 2;
  // min(1, …) because rounding can push h a hair above 1 for nearly opposite points.
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(Math.min(1, h)));
}

// Streets do not run straight to the campus gate: walking routes in towns are typically 1.2 to 1.4
// times the straight-line distance, so we take 1.3. 4.8 km/h is an ordinary adult walking pace.
// Both are assumptions, so the estimate rounds up rather than promise a shorter walk than likely.
const DETOUR_FACTOR = 1.3;
const WALKING_KMH = 4.8;

/**
 * Estimated walking time in minutes for a straight-line distance in km: distance × 1.3 for the
 * detour along streets, at 4.8 km/h, rounded up to whole minutes, and above 30 minutes rounded up
 * to a multiple of 5 (a long walk is not known to the minute). 0 for 0 km or less.
 */
export function walkingMinutes(km: number): number {
  if (km <= 0) return 0;
  // The tolerance keeps float noise (4 km gives 65.00000000000001) from adding a whole minute.
  const minutes = Math.ceil(((km * DETOUR_FACTOR) / WALKING_KMH) * 60 - 1e-9);
  return minutes > 30 ? Math.ceil(minutes / 5) * 5 : minutes;
}

/** A latitude/longitude box; `minLng`/`maxLng` are not wrapped at ±180. */
export type BoundingBox = { minLat: number; maxLat: number; minLng: number; maxLng: number };

// A hair of slack (about 0.1 mm) so that points exactly `km` away, whose computed coordinates
// carry floating-point rounding, still fall inside. The box is only a prefilter, so slack is harmless.
const SLACK_DEGREES = 1e-9;

/**
 * A box holding every point within `km` of `center`, for a cheap index lookup before the exact
 * distanceKm check. The longitude span widens by 1/cos(latitude); it is the exact extent of the
 * circle (asin(sin d / cos φ)), which is slightly wider than d / cos φ because the circle's
 * widest points lie a little poleward of the centre. Near a pole it spans every longitude.
 * Longitudes are not wrapped at ±180 (no Sri Lankan search comes near the antimeridian).
 */
export function boundingBox(center: LatLng, km: number): BoundingBox {
  const angle = Math.max(0, km) / EARTH_RADIUS_KM; // angular radius in radians
  const latSpan = angle * DEGREES + SLACK_DEGREES;
  const minLat = Math.max(-90, center.latitude - latSpan);
  const maxLat = Math.min(90, center.latitude + latSpan);
  const ratio = Math.sin(angle) / Math.cos(center.latitude * RADIANS);
  // ratio ≥ 1 (or a circle reaching over a pole) means the circle wraps all the way round.
  if (!(ratio < 1) || minLat === -90 || maxLat === 90) {
    return { minLat, maxLat, minLng: -180, maxLng: 180 };
  }
  const lngSpan = Math.asin(ratio) * DEGREES + SLACK_DEGREES;
  return { minLat, maxLat, minLng: center.longitude - lngSpan, maxLng: center.longitude + lngSpan };
}
