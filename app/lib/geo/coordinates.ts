/** A point on the Earth in decimal degrees (WGS 84, as Google Maps and phones give them). */
export type LatLng = { latitude: number; longitude: number };

// Google links carry a few hundred characters of `data=`; anything far longer is not a map link
// we want to run regular expressions over.
const MAX_LINK_LENGTH = 8192;
const MAX_PAIR_LENGTH = 200;

/**
 * One coordinate as people and Google write it: signed decimal degrees ("-6.7951"), or degrees
 * with optional minutes and seconds and a hemisphere letter ("6°47'42.4"N", "6°47.706'N",
 * "6.7951° N"). Groups: sign, degrees, minutes, seconds, hemisphere.
 */
const COORDINATE = String.raw`([+-])?(\d{1,3}(?:\.\d+)?)\s*°?\s*(?:(\d{1,2}(?:\.\d+)?)\s*['′]\s*(?:(\d{1,2}(?:\.\d+)?)\s*(?:"|″|''))?)?\s*([NSEWnsew])?`;

// Two coordinates separated by a comma or by white space alone (Google's DMS form has no comma).
const PAIR = new RegExp(String.raw`^\s*${COORDINATE}\s*(?:,\s*|\s)\s*${COORDINATE}\s*$`);

// The place's own pin inside a `data=` blob: `!3d<lat>!4d<lng>`.
const DATA_PIN = /!3d([+-]?\d{1,3}(?:\.\d+)?)!4d([+-]?\d{1,3}(?:\.\d+)?)/;

// The map's centre: `@<lat>,<lng>,<zoom or street-view parameters>`.
const VIEW_CENTRE = /^@([+-]?\d{1,3}(?:\.\d+)?),([+-]?\d{1,3}(?:\.\d+)?)(?:,|$)/;

// Parameters that name what the link is about, most specific first.
const TARGET_PARAMS = ["q", "query", "destination", "daddr"] as const;
// Parameters that only say where the map is looking.
// (`viewpoint` is where a Street View link stands.)
const VIEW_PARAMS = ["ll", "center", "viewpoint", "sll"] as const;

/** A point if both numbers are finite and on the globe, else null. */
function validPoint(latitude: number, longitude: number): LatLng | null {
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  // `+ 0` turns -0 into 0 so that "-0.0" compares equal to 0 everywhere.
  return { latitude: latitude + 0, longitude: longitude + 0 };
}

type Coordinate = { value: number; hemisphere: string | undefined };

/** One matched coordinate as signed degrees, or null if its minutes or seconds are impossible. */
function coordinate(
  sign: string | undefined,
  degrees: string,
  minutes: string | undefined,
  seconds: string | undefined,
  hemisphere: string | undefined,
): Coordinate | null {
  const letter = hemisphere?.toUpperCase();
  // "-6.79S" says south twice, or contradicts itself; either way we cannot trust it.
  if (sign && letter) return null;
  let value = Number(degrees);
  if (minutes !== undefined) {
    // With minutes the degrees are whole ("6°47'"); "6.5°47'" is not a coordinate.
    if (degrees.includes(".")) return null;
    const m = Number(minutes);
    if (m >= 60) return null;
    value += m / 60;
    if (seconds !== undefined) {
      if (minutes.includes(".")) return null;
      const s = Number(seconds);
      if (s >= 60) return null;
      value += s / 3600;
    }
  }
  if (sign === "-" || letter === "S" || letter === "W") value = -value;
  return { value, hemisphere: letter };
}

/**
 * Reads "6.7951, 79.9009" (and the degrees-minutes-seconds form Google shows) as a point.
 * Returns null for anything else, including numbers off the globe.
 */
export function parseCoordinatePair(text: string): LatLng | null {
  if (typeof text !== "string" || text.length > MAX_PAIR_LENGTH) return null;
  const match = PAIR.exec(text);
  if (!match) return null;
  const first = coordinate(match[1], match[2], match[3], match[4], match[5]);
  const second = coordinate(match[6], match[7], match[8], match[9], match[10]);
  if (!first || !second) return null;
  const isLatitude = (c: Coordinate) => c.hemisphere === undefined || c.hemisphere === "N" || c.hemisphere === "S";
  const isLongitude = (c: Coordinate) => c.hemisphere === undefined || c.hemisphere === "E" || c.hemisphere === "W";
  if (isLatitude(first) && isLongitude(second)) return validPoint(first.value, second.value);
  // "79.9009E 6.7951N" names its axes, so the order does not matter; without letters it does.
  if (first.hemisphere && second.hemisphere && isLongitude(first) && isLatitude(second)) {
    return validPoint(second.value, first.value);
  }
  return null;
}

/** decodeURIComponent that returns null instead of throwing on a malformed escape. */
function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** A coordinate pair in a path segment, where Google writes spaces as "+". */
function pairFromSegment(segment: string | undefined): LatLng | null {
  if (!segment) return null;
  const text = decoded(segment.replaceAll("+", " "));
  return text === null ? null : parseCoordinatePair(text);
}

/** A coordinate pair in a query parameter: `6.79,79.90`, `loc:6.79,79.90`, `loc:6.79,79.90 (Label)`. */
function pairFromParam(value: string): LatLng | null {
  const text = value
    .trim()
    .replace(/^loc:\s*/i, "")
    .replace(/\s*\([^()]*\)\s*$/, "");
  return parseCoordinatePair(text);
}

/** True for the hosts and paths Google Maps links live on (see also isMapLink in ~/lib/location-link). */
function isGoogleMapsUrl(url: URL): boolean {
  if (url.protocol !== "https:" && url.protocol !== "http:") return false;
  const host = url.hostname.toLowerCase();
  if (host === "maps.google.com") return true;
  const mapsPath = url.pathname === "/maps" || url.pathname.startsWith("/maps/");
  return ["google.com", "www.google.com", "google.lk", "www.google.lk"].includes(host) && mapsPath;
}

/** The coordinates a Google Maps URL carries, in the order of how much they say about the place. */
function coordinatesFromUrl(url: URL): LatLng | null {
  const path = decoded(url.pathname) ?? url.pathname;
  const segments = url.pathname.split("/").filter((segment) => segment !== "");
  if (segments[0] === "maps") segments.shift();
  const [kind = "", ...rest] = segments;

  // 1. The pin Google stores for a place; `@` next to it is only where the map was looking.
  const pin = DATA_PIN.exec(path);
  if (pin) return validPoint(Number(pin[1]), Number(pin[2]));

  // 2. A target named in the query. If it is a name rather than coordinates, the link is about
  //    that name, and the map's centre (if any) says nothing reliable about where it is.
  for (const name of TARGET_PARAMS) {
    const value = url.searchParams.get(name);
    if (value !== null && value.trim() !== "") return pairFromParam(value);
  }

  // 3. A target named in the path.
  const targets = rest.filter((segment) => !segment.startsWith("@") && !segment.startsWith("data="));
  if (kind === "search") return pairFromSegment(targets[0]);
  // Directions run origin/…/destination; the destination is where the student is going.
  if (kind === "dir") return pairFromSegment(targets.at(-1));
  if (kind === "place") {
    const named = pairFromSegment(targets[0]);
    if (named) return named;
    // Otherwise fall through: Google centres a place's page on the place, so `@` is close to it.
  }

  // 4. Where the map is looking: a bare map link or a place page without a pin.
  for (const name of VIEW_PARAMS) {
    const value = url.searchParams.get(name);
    if (value !== null && value.trim() !== "") return pairFromParam(value);
  }
  const centre = segments.map((segment) => VIEW_CENTRE.exec(segment)).find((match) => match !== null);
  if (centre) return validPoint(Number(centre[1]), Number(centre[2]));
  return null;
}

/**
 * The coordinates in a Google Maps link, read from the link itself without any network call.
 * Prefers the place's pin (`!3d…!4d…` in `data=`), then coordinates in `q`/`query`/`destination`
 * or the path, then the map's centre (`@lat,lng`, `ll`). Returns null for other hosts, for short
 * links (maps.app.goo.gl, goo.gl/maps: expanding them needs a request, so callers ask for a pin),
 * for links that name a place only by text, for numbers off the globe and for non-URLs. Never throws.
 */
export function coordinatesFromMapLink(link: string): LatLng | null {
  try {
    if (typeof link !== "string" || link.length > MAX_LINK_LENGTH) return null;
    const url = new URL(link.trim());
    if (!isGoogleMapsUrl(url)) return null;
    return coordinatesFromUrl(url);
  } catch {
    return null;
  }
}

/**
 * Sri Lanka as a polygon of [latitude, longitude] vertices, running clockwise from the north.
 * The north-west side follows the India–Sri Lanka maritime boundary (the 1974 Palk Strait
 * agreement's six positions, then the first positions of the 1976 Gulf of Mannar agreement), since
 * there Indian land (Rameswaram, Dhanushkodi, Point Calimere) lies within 30 km of Sri Lankan
 * islands; a plain box cannot separate them. Everywhere else the polygon runs through open sea
 * well clear of the coast, so it holds the whole island, Jaffna's islands, Mannar and the east coast.
 */
export const SRI_LANKA_BOUNDS: readonly (readonly [latitude: number, longitude: number])[] = [
  [10.0833, 80.05], // Palk Strait position 1 (10°05'N 80°03'E), north of Point Pedro
  [10.2, 80.5], // Bay of Bengal, north-east of Point Pedro
  [9.3, 81.3], // off Mullaitivu
  [8.3, 82.0], // off Trincomalee and Batticaloa
  [6.4, 82.2], // off Arugam Bay
  [5.6, 81.6], // south of Kirinda
  [5.6, 79.5], // south-west of Dondra Head and Galle
  [8.6667, 79.3033], // Gulf of Mannar position 4m (08°40.0'N 79°18.2'E)
  [8.8833, 79.4883], // Gulf of Mannar position 3m (08°53.0'N 79°29.3'E)
  [9.1, 79.5333], // Palk Strait position 6 (09°06'N 79°32'E), west of Talaimannar on Adam's Bridge
  [9.2167, 79.5333], // position 5 (09°13'N 79°32'E)
  [9.3633, 79.5117], // position 4 (09°21.80'N 79°30.70'E), by Kachchatheevu
  [9.6692, 79.3767], // position 3 (09°40.15'N 79°22.60'E)
  [9.95, 79.5833], // position 2 (09°57'N 79°35'E)
];

/**
 * True when the point lies in Sri Lanka (see SRI_LANKA_BOUNDS), false for India's coast and the
 * rest of the world. Meant to catch a pin dropped in the wrong country, not to settle borders.
 */
export function isInSriLanka(point: LatLng): boolean {
  const { latitude: y, longitude: x } = point;
  if (!Number.isFinite(y) || !Number.isFinite(x)) return false;
  // Ray casting: count the polygon's edges crossed by a ray running east from the point. At this
  // size, treating degrees as flat coordinates moves the edges by metres, far out at sea.
  let inside = false;
  for (let i = 0, j = SRI_LANKA_BOUNDS.length - 1; i < SRI_LANKA_BOUNDS.length; j = i++) {
    const [yi, xi] = SRI_LANKA_BOUNDS[i];
    const [yj, xj] = SRI_LANKA_BOUNDS[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * The point rounded to 3 decimal places (about 110 m of latitude), so public pages show the
 * neighbourhood of a boarding place without pointing at the owner's front door.
 */
export function roundedForPublic(point: LatLng): LatLng {
  // `+ 0` keeps a point just south of the equator from turning into -0.
  const round = (value: number) => Math.round(value * 1000) / 1000 + 0;
  return { latitude: round(point.latitude), longitude: round(point.longitude) };
}
