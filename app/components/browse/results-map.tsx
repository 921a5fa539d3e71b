import type * as Leaflet from "leaflet";
import leafletCss from "leaflet/dist/leaflet.css?url";
import { useEffect, useRef, useState } from "react";
import { useLocalePath, useTranslation } from "~/i18n";
import type { MapPoint, MapTileSource } from "~/schemas/browse-view";
import markerCss from "./results-map.css?url";
import "virtual:catalogue/browse";

// The browse results on a map (issue 12, ADR 053). This module comes with the
// /browse/map route, which the list page loads only when someone asks for the
// map, and it fetches Leaflet itself when it first draws: neither weighs on
// the list page. Cards are built from text nodes: a title is the owner's text.

/** Markers closer than this many pixels are drawn as one cluster with a count. */
const CLUSTER_PX = 56;

/** Adds a stylesheet once (allowed by the CSP: our own origin). */
function useStylesheet(href: string) {
  useEffect(() => {
    if (document.querySelector(`link[href="${href}"]`)) return;
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    document.head.append(link);
  }, [href]);
}

/** Groups points that would overlap at the map's zoom, by a grid of CLUSTER_PX squares. */
function clusters(map: Leaflet.Map, points: MapPoint[]): MapPoint[][] {
  const cells = new Map<string, MapPoint[]>();
  for (const point of points) {
    const { x, y } = map.project([point.latitude, point.longitude], map.getZoom());
    const key = `${Math.floor(x / CLUSTER_PX)}:${Math.floor(y / CLUSTER_PX)}`;
    cells.set(key, [...(cells.get(key) ?? []), point]);
  }
  return [...cells.values()];
}

type Props = { points: MapPoint[]; total: number; tiles: MapTileSource };

export default function ResultsMap({ points, total, tiles }: Props) {
  const { t } = useTranslation();
  const localise = useLocalePath();
  const element = useRef<HTMLElement>(null);
  const [failed, setFailed] = useState(false);
  useStylesheet(leafletCss);
  useStylesheet(markerCss);

  useEffect(() => {
    let map: Leaflet.Map | null = null;
    let cancelled = false;
    import("leaflet/dist/leaflet-src.esm.js")
      .then((L) => {
        if (cancelled || !element.current) return;
        map = L.map(element.current, { scrollWheelZoom: false });
        const credit = document.createElement("a");
        credit.textContent = tiles.attribution;
        if (tiles.attributionUrl) credit.href = tiles.attributionUrl;
        L.tileLayer(tiles.url, {
          maxZoom: 19,
          attribution: tiles.attributionUrl ? credit.outerHTML : credit.innerHTML,
          // Tile servers such as OpenStreetMap's refuse requests that name no site.
          referrerPolicy: "strict-origin-when-cross-origin",
        }).addTo(map);
        const layer = L.layerGroup().addTo(map);
        const card = (group: MapPoint[]) => {
          const box = document.createElement("div");
          box.className = "space-y-2 text-sm";
          if (group.length > 1) {
            const heading = document.createElement("p");
            heading.className = "font-semibold";
            heading.textContent = t("browse.map.places", { count: group.length });
            box.append(heading);
          }
          for (const point of group.slice(0, 8)) {
            const link = document.createElement("a");
            link.href = localise(`/listing/${point.slug}`);
            link.className = "block font-semibold text-brand-800 underline";
            link.textContent = point.title;
            const price = document.createElement("span");
            price.className = "block text-slate-700";
            price.textContent = point.approximate
              ? `${point.priceLine} · ${t("browse.map.approximate")}`
              : point.priceLine;
            box.append(link, price);
          }
          return box;
        };
        const shown = map;
        const draw = () => {
          layer.clearLayers();
          for (const group of clusters(shown, points)) {
            const bounds = L.latLngBounds(group.map((p): [number, number] => [p.latitude, p.longitude]));
            const single = group.length === 1;
            const label = document.createElement("span");
            label.className = single ? "bodima-marker" : "bodima-marker bodima-cluster";
            label.textContent = single ? group[0].priceLine.replace("LKR ", "") : String(group.length);
            const marker = L.marker(bounds.getCenter(), {
              icon: L.divIcon({ className: "", html: label, iconSize: undefined }),
              keyboard: true,
              title: single ? group[0].title : t("browse.map.places", { count: group.length }),
            });
            // A cluster over an area opens wider; one on a single spot (a town centre) lists its places.
            const spread = !bounds.getNorthEast().equals(bounds.getSouthWest());
            if (!single && spread && shown.getZoom() < 18) marker.on("click", () => shown.fitBounds(bounds.pad(0.3)));
            else marker.bindPopup(() => card(group));
            marker.addTo(layer);
          }
        };
        map.on("zoomend", draw);
        if (points.length > 0)
          map.fitBounds(L.latLngBounds(points.map((p): [number, number] => [p.latitude, p.longitude])).pad(0.1), {
            maxZoom: 15,
          });
        else
          map.fitBounds([
            [5.85, 79.5],
            [9.9, 81.95],
          ]);
        draw();
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      map?.remove();
    };
  }, [points, tiles, t, localise]);

  if (failed)
    return (
      <p role="alert" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
        {t("browse.map.failed")}
      </p>
    );
  return (
    <div>
      <p role="status" className="mb-2 text-sm text-slate-700">
        {points.length === 0 ? t("browse.map.none") : t("browse.map.showing", { shown: points.length, total })}
      </p>
      <section
        ref={element}
        aria-label={t("browse.map.label")}
        data-testid="results-map"
        className="h-96 w-full overflow-hidden rounded-xl border border-slate-200 bg-slate-100"
      />
    </div>
  );
}
