/** Hosts accepted as map links (the spec: the maps host, the search host and two short-link hosts). */
export const MAP_HOSTS = ["maps.google.com", "www.google.com", "maps.app.goo.gl", "goo.gl"] as const;

export function isMapLink(value: string): boolean {
  try {
    const url = new URL(value.trim());
    if (url.protocol !== "https:" && url.protocol !== "http:") return false;
    const host = url.hostname.toLowerCase();
    if (host === "google.com" || host === "www.google.com") return url.pathname.startsWith("/maps");
    return (MAP_HOSTS as readonly string[]).includes(host);
  } catch {
    return false;
  }
}

/** A Google Maps link to a point: the phone's map app opens it where it has one. */
export function mapLinkToPoint(point: { latitude: number; longitude: number }): string {
  return `https://www.google.com/maps/search/?api=1&query=${point.latitude},${point.longitude}`;
}

export type LocationLink = { href: string | null; label: string | null; kind: "map" | "search" | "none" };

/**
 * A stored maps link opens directly;
 * other text opens a maps search. The label is the link's q parameter if
 * present, else 'View Location' for links, else the text itself; with no
 * location at all the caller shows 'Location not specified'.
 */
export function locationLink(
  location: string | null | undefined,
  point?: { latitude: number | null; longitude: number | null },
): LocationLink {
  const text = location?.trim() ?? "";
  // A known position (ADR 049) opens the map at it, in the phone's map app where it has one,
  // unless the owner gave a map link of their own.
  if (point && point.latitude !== null && point.longitude !== null && !isMapLink(text)) {
    return {
      href: mapLinkToPoint({ latitude: point.latitude, longitude: point.longitude }),
      label: text || null,
      kind: "map",
    };
  }
  if (!text) return { href: null, label: null, kind: "none" };
  if (isMapLink(text)) {
    const q = new URL(text).searchParams.get("q")?.trim();
    return { href: text, label: q || null, kind: "map" };
  }
  return {
    href: `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(text)}`,
    label: text,
    kind: "search",
  };
}
