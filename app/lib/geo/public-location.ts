import { isMapLink, mapLinkToPoint } from "~/lib/location-link";
import { roundedForPublic } from "./coordinates";

// What the public sees of where a listing is (ADR 052, ADR 065): the exact
// point and the owner's own words only when the owner chose 'Show the exact
// point'; otherwise the position rounded to about 100 m, and a location text
// with no link and no coordinate finer than that. Worked out when a listing is
// written (app/models/listing.server.ts, listingColumns), so every output and
// every search reads the same public values.

type Positioned = { latitude: number | null; longitude: number | null };

/** The position the public sees: exact where the owner chose to show it, else rounded to about 100 m. */
export function publicPosition(listing: Positioned & { exactPosition: boolean }): Positioned {
  if (listing.latitude === null || listing.longitude === null) return { latitude: null, longitude: null };
  const exact = { latitude: listing.latitude, longitude: listing.longitude };
  return listing.exactPosition ? exact : roundedForPublic(exact);
}

/**
 * The listing's public location: the owner's map link or text as given when
 * they show the exact point. Otherwise a map link becomes a link to the
 * rounded position, or, without a position (a short link hides its point
 * behind a request we do not make), the name the link searches for, if any;
 * and typed text loses its links and has its coordinates rounded.
 */
export function publicLocation(
  listing: Positioned & { location: string | null; exactPosition: boolean },
): string | null {
  const given = listing.location?.trim() ?? "";
  if (!given) return null;
  if (listing.exactPosition) return given;
  if (!isMapLink(given)) return publicLocationText(given);
  const { latitude, longitude } = publicPosition(listing);
  if (latitude !== null && longitude !== null) return mapLinkToPoint({ latitude, longitude });
  return publicLocationText(placeNamed(given) ?? "");
}

// A token with a scheme, a www. host, or a host and a path ("goo.gl/abc", "maps.app.goo.gl/xyz", but not
// the address "No.12/3"): any of them may lead to the exact point, and none can be rounded.
const LINK = /(?:\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\/)[^\s()]*/gi;
// what3words addresses (///filled.count.soap) name a 3 m square.
const THREE_WORDS = /\/\/\/[\p{L}\p{M}]+\.[\p{L}\p{M}]+\.[\p{L}\p{M}]+/gu;
// Plus codes ("VVMP+M7", "6QXXVVMP+M7") name a 14 m square: Open Location Code's 20 digits.
const PLUS_CODE = /\b[23456789CFGHJMPQRVWX]{4,8}\+[23456789CFGHJMPQRVWX]{0,3}(?![\w+])/g;
// Degrees and minutes, with or without seconds: 6°53'03.1"N, 6° 53.05' N.
const DEGREES_MINUTES =
  /(\d{1,3})\s*°\s*(\d{1,2}(?:\.\d+)?)\s*['′]\s*(?:(\d{1,2}(?:\.\d+)?)\s*(?:"|″|''))?\s*([NSEWnsew])?/g;
// Decimal degrees finer than 3 places (6.8842); longer whole parts are no coordinate.
const FINE_DECIMAL = /(?<![\d.])(\d{1,3})\.(\d{4,})(?![\d.])/g;

// As roundedForPublic: `+ 0` keeps -0 out.
const round = (value: number) => String(Math.round(value * 1000) / 1000 + 0);

/**
 * Free text as the public may see it: links removed (where they lead cannot be
 * rounded), plus codes and what3words addresses removed, and coordinates
 * rounded to 3 decimal places (about 100 m) like the public position. Null
 * when nothing is left.
 */
export function publicLocationText(text: string): string | null {
  const kept = text
    .replace(LINK, " ")
    .replace(THREE_WORDS, " ")
    .replace(PLUS_CODE, " ")
    .replace(DEGREES_MINUTES, (_match, degrees: string, minutes: string, seconds: string | undefined, hemisphere) => {
      const value = Number(degrees) + Number(minutes) / 60 + Number(seconds ?? 0) / 3600;
      return `${round(value)}${hemisphere ? String(hemisphere).toUpperCase() : ""}`;
    })
    .replace(FINE_DECIMAL, (match) => round(Number(match)))
    .replace(/\(\s*\)/g, " ")
    .replace(/\s+/g, " ")
    .replace(/\s+([,;.)])/g, "$1")
    .replace(/^[\s,;:–-]+|[\s,;:–-]+$/g, "");
  return kept === "" ? null : kept;
}

// Parameters and path parts where a Google Maps link names what it searches for (app/lib/geo/coordinates.ts).
const NAME_PARAMS = ["q", "query", "destination", "daddr"] as const;

/** The place a map link names by text ('Katubedda Junction'), or null. */
function placeNamed(link: string): string | null {
  const url = new URL(link);
  for (const name of NAME_PARAMS) {
    const value = url.searchParams.get(name)?.trim();
    if (value) return value;
  }
  const [kind, name] = url.pathname.split("/").filter(Boolean).slice(1);
  if ((kind === "place" || kind === "search") && name && !name.startsWith("@")) {
    try {
      return decodeURIComponent(name.replaceAll("+", " "));
    } catch {
      return null;
    }
  }
  return null;
}
