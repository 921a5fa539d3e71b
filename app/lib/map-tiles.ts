/**
 * Where the browse map's tiles come from (ADR 053): MAP_TILE_URL, a
 * {z}/{x}/{y} template, OpenStreetMap's standard tiles by default. Set once at
 * start-up (app/services.server.ts); the map and the Content-Security-Policy's
 * img-src read it here, so the CSP allows that one tile host and no other.
 */
export const DEFAULT_MAP_TILE_URL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";

/** The template the map asks tiles from, the plain-text credit its corner shows, and where that links. */
export type MapTiles = { url: string; attribution: string; attributionUrl: string | null };

const OSM: MapTiles = {
  url: DEFAULT_MAP_TILE_URL,
  attribution: "© OpenStreetMap contributors",
  attributionUrl: "https://www.openstreetmap.org/copyright",
};

let tiles: MapTiles = OSM;

export function setMapTiles(url: string | undefined, attribution: string | undefined): void {
  tiles =
    !url || url === DEFAULT_MAP_TILE_URL
      ? { ...OSM, attribution: attribution || OSM.attribution }
      : { url, attribution: attribution || new URL(url.replace(/[{}]/g, "")).host, attributionUrl: null };
}

export function mapTiles(): MapTiles {
  return tiles;
}

/** The tile server's origin, for img-src. */
export function mapTileOrigin(): string {
  return new URL(tiles.url.replace(/[{}]/g, "")).origin;
}
