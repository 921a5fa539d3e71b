import type * as Leaflet from "leaflet";
import leafletCss from "leaflet/dist/leaflet.css?url";
import { type RefObject, useEffect, useState } from "react";
import { useWhenChanged } from "~/components/forms/use-when-changed";
import type { MapTileSource } from "~/schemas/browse-view";

// What every map of ours needs (ADR 053): Leaflet's own ES module
// build, fetched when a map first draws, its stylesheet from our origin, and
// the tile layer with its credit.

export type LeafletModule = typeof Leaflet;

/** Sri Lanka, for a map with nothing of its own to show. */
export const ISLAND_VIEW: [[number, number], [number, number]] = [
  [5.85, 79.5],
  [9.9, 81.95],
];

export function loadLeaflet(): Promise<LeafletModule> {
  return import("leaflet/dist/leaflet-src.esm.js");
}

/** Adds a stylesheet of ours once (the CSP allows our own origin only); Leaflet's by default. */
export function useStylesheet(href: string = leafletCss): void {
  useEffect(() => {
    if (document.querySelector(`link[href="${href}"]`)) return;
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    document.head.append(link);
  }, [href]);
}

/** The tile layer with its credit (plain text, linked when the source has an address). */
export function addTiles(L: LeafletModule, map: Leaflet.Map, tiles: MapTileSource): void {
  const credit = document.createElement("a");
  credit.textContent = tiles.attribution;
  if (tiles.attributionUrl) credit.href = tiles.attributionUrl;
  L.tileLayer(tiles.url, {
    maxZoom: 19,
    attribution: tiles.attributionUrl ? credit.outerHTML : credit.innerHTML,
    // Tile servers such as OpenStreetMap's refuse requests that name no site.
    referrerPolicy: "strict-origin-when-cross-origin",
  }).addTo(map);
}

/**
 * Makes a Leaflet map in `element` once Leaflet has loaded, lets `setUp` draw
 * on it, and removes it when `deps` change or the component goes. True when
 * Leaflet could not be loaded (offline), so the caller can say so.
 */
export function useLeafletMap(
  element: RefObject<HTMLElement | null>,
  options: Leaflet.MapOptions,
  setUp: (L: LeafletModule, map: Leaflet.Map) => void,
  deps: readonly unknown[],
): boolean {
  const [failed, setFailed] = useState(false);
  useStylesheet();
  useWhenChanged(() => {
    let map: Leaflet.Map | null = null;
    let cancelled = false;
    loadLeaflet()
      .then((L) => {
        if (cancelled || !element.current) return;
        map = L.map(element.current, options);
        setUp(L, map);
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      map?.remove();
    };
  }, deps);
  return failed;
}
