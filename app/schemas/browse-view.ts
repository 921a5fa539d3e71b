// What the browse page's presenter (app/pages/browse-page.server.ts) writes for
// its components. Types only, so both sides may import them (docs/decisions/024-layers.md).

/** A choice of a select: the English value (what filters, URLs and search use) and its label in the reader's language. */
export type Choice = { value: string; label: string };

/**
 * A select of the browse form, all written by the loader: the browser gets
 * values and texts, not the option lists or the code that builds them (budget).
 * The first choice is the empty one ('All Types'), which is no filter.
 */
export type SelectView = {
  id: string;
  /** The query parameter. */
  name: string;
  label: string;
  value: string;
  choices: Choice[];
  /** The React key. The faculty select's names its university, so another university's list starts afresh. */
  key: string;
};

/** A text box or a tick box of the filter form: the query parameter, its label and the value it starts with (or sends). */
export type InputView = { name: string; label: string; value: string };

/** The filter form (app/components/browse/filter-panel.tsx) as the loader writes it. */
export type FilterFormView = {
  /** The drawer's summary on phones, and the form's heading from lg. */
  toggle: string;
  heading: string;
  /** Values the path gives (location, city): sent on unchanged. */
  hidden: { name: string; value: string }[];
  /** Above the prices: university, faculty and 'Within' (with a university), property type. */
  upper: SelectView[];
  prices: { legend: string; placeholder: string; inputs: InputView[] };
  /** Below the prices: max move-in cost, gender. */
  lower: SelectView[];
  /** The yes/no facts; `value` is the one value each box sends. */
  facts: { legend: string; boxes: (InputView & { checked: boolean })[] };
  freeBeds: SelectView;
  apply: string;
};

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
