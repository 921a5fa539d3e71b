import type { LatLng } from "./coordinates";
import { boundingBox, EARTH_RADIUS_KM } from "./distance";

/**
 * Latitude bands of 0.01° (about 1.1 km). The database keeps each listing's
 * band (`placeBand`), and its index on places runs (university, band,
 * longitude, latitude, …): a circle is then a few exact band lookups, each a
 * short longitude range, instead of a scan of every listing of the university
 * at that latitude (ADR 050).
 */
export const BANDS_PER_DEGREE = 100;

/** The band of a latitude; the database works it out the same way (floor). */
export function placeBand(latitude: number): number {
  return Math.floor(latitude * BANDS_PER_DEGREE);
}

/** Kilometres per degree of latitude on the sphere distanceKm uses. */
export const KM_PER_DEGREE = (EARTH_RADIUS_KM * Math.PI) / 180;

/**
 * What the database needs to find the listings within `km` of `center`: the
 * bands and longitudes of the box around the circle (answered by the index),
 * and the scale of each degree at the centre, so the exact check is plain
 * arithmetic on the row: ((lat - lat0) × kmPerDegreeLat)² + ((lng - lng0) ×
 * kmPerDegreeLng)² ≤ km². Over a few kilometres that flat measure differs from
 * the haversine distance by well under a metre; far out it still orders
 * places rightly, which is all 'Nearest first' asks of it.
 */
export type SearchArea = {
  center: LatLng;
  km: number;
  bands: number[];
  minLongitude: number;
  maxLongitude: number;
  kmPerDegreeLat: number;
  kmPerDegreeLng: number;
};

export function searchArea(center: LatLng, km: number): SearchArea {
  const box = boundingBox(center, km);
  const bands: number[] = [];
  for (let band = placeBand(box.minLat); band <= placeBand(box.maxLat); band++) bands.push(band);
  return {
    center,
    km,
    bands,
    minLongitude: box.minLng,
    maxLongitude: box.maxLng,
    kmPerDegreeLat: KM_PER_DEGREE,
    kmPerDegreeLng: KM_PER_DEGREE * Math.cos((center.latitude * Math.PI) / 180),
  };
}
