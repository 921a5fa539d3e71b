import type { DB } from "~/db/db.server";
import { CITIES } from "~/directory/universities";
import { formatLkr } from "~/lib/format";
import { mapTiles } from "~/lib/map-tiles";
import { searchListings } from "~/models/listing.server";
import { parseBrowseFilters } from "~/schemas/browse-filters";
import type { MapPoint, MapPoints } from "~/schemas/browse-view";

/** How many of the results the map shows: its first page (ADR 053). */
export const MAP_LIMIT = 50;

/** The first MAP_LIMIT results of the same filters and order as the browse page, as map points. */
export async function loadMapPoints(db: DB, url: URL): Promise<MapPoints> {
  // Values the browse page would ignore with a notice are ignored here too.
  const { filters } = parseBrowseFilters(url.searchParams);
  const { ads, pagination } = await searchListings(db, filters, { page: 1, limit: MAP_LIMIT });
  const points = ads.flatMap((ad): MapPoint[] => {
    const own = ad.latitude !== null && ad.longitude !== null;
    const at = own ? { latitude: ad.latitude!, longitude: ad.longitude! } : CITIES.find((c) => c.code === ad.city);
    if (!at) return [];
    const { latitude, longitude } = at;
    return [{ slug: ad.slug, title: ad.title, priceLine: formatLkr(ad.price), latitude, longitude, approximate: !own }];
  });
  return { points, total: pagination.total, tiles: mapTiles() };
}
