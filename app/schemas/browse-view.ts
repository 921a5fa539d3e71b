// What the browse page's presenter (app/pages/browse-page.server.ts) writes for
// its components. Types only, so both sides may import them (docs/decisions/024-layers.md).

/** A choice of a select: the English value (what filters, URLs and search use) and its label in the reader's language. */
export type Choice = { value: string; label: string };

/** One active filter: its label and a link to the results without it. */
export type FilterChip = { key: string; label: string; href: string };

/** The pagination's links, worked out by the loader (app/pages/browse-page.server.ts); null where disabled. */
export type PageNav = {
  page: number;
  first: string | null;
  previous: string | null;
  next: string | null;
  last: string | null;
  /** Numbered pages; null stands for a gap (an ellipsis). */
  pages: ({ page: number; href: string } | null)[];
};

/** A place on the results map: the public position, else the city's centre (approximate). ADR 053. */
export type MapPoint = {
  slug: string;
  title: string;
  priceLine: string;
  latitude: number;
  longitude: number;
  approximate: boolean;
};

/** Where the map takes its tiles from (MAP_TILE_URL) and how it credits them. */
export type MapTileSource = { url: string; attribution: string; attributionUrl: string | null };

/** What /browse/map answers: the first results of the browse filters as map points. */
export type MapPoints = { points: MapPoint[]; total: number; tiles: MapTileSource };
