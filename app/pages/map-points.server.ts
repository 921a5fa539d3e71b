import type { DB } from "~/db/db.server";
import { formatLkr } from "~/lib/format";
import { isApproximate, listingPlace } from "~/lib/geo/place";
import { mapTiles } from "~/lib/map-tiles";
import { searchListings } from "~/models/listing-search.server";
import { parseBrowseFilters } from "~/schemas/browse-filters";
import type { MapPoint, MapPoints } from "~/schemas/browse-view";

/** How many of the results the map shows: its first page (ADR 053). */
export const MAP_LIMIT = 50;

/** The first MAP_LIMIT results of the same filters and order as the browse page, as map points. */
export async function loadMapPoints(db: DB, url: URL, phonesEnabled = true): Promise<MapPoints> {
  // Values the browse page would ignore with a notice are ignored here too, and so is
  // 'Phone confirmed only' while phone confirmation is off (ADR 080).
  const { filters } = parseBrowseFilters(url.searchParams);
  if (!phonesEnabled) delete filters.phone;
  const { ads, pagination } = await searchListings(db, filters, { page: 1, limit: MAP_LIMIT });
  const points = ads.map((ad): MapPoint => {
    // The point distance counts from: the public position (already rounded unless shown exact), else the city's centre.
    const place = listingPlace({ ...ad, exactPosition: true });
    return {
      slug: ad.slug,
      title: ad.title,
      priceLine: formatLkr(ad.price),
      latitude: place.placeLatitude,
      longitude: place.placeLongitude,
      approximate: isApproximate(ad),
    };
  });
  return { points, total: pagination.total, tiles: mapTiles() };
}
