import type * as Leaflet from "leaflet";
import { useRef } from "react";
import { addTiles, ISLAND_VIEW, useLeafletMap, useStylesheet } from "~/components/map/leaflet-assets";
import { MapFrame } from "~/components/map/map-frame";
import { useLocalePath, useTranslation } from "~/i18n";
import type { MapPoint, MapTileSource } from "~/schemas/browse-view";
import markerCss from "./results-map.css?url";
import "virtual:catalogue/browse";

// The browse results on a map (ADR 053). This module comes with the
// /browse/map route, which the list page loads only when someone asks for the
// map, and it fetches Leaflet itself when it first draws: neither weighs on
// the list page. Cards are built from text nodes: a title is the owner's text.

/** Markers closer than this many pixels are drawn as one cluster with a count. */
const CLUSTER_PX = 56;

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
  useStylesheet(markerCss);
  const failed = useLeafletMap(
    element,
    { scrollWheelZoom: false },
    (L, map) => {
      addTiles(L, map, tiles);
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
      const draw = () => {
        layer.clearLayers();
        for (const group of clusters(map, points)) {
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
          if (!single && spread && map.getZoom() < 18) marker.on("click", () => map.fitBounds(bounds.pad(0.3)));
          else marker.bindPopup(() => card(group));
          marker.addTo(layer);
        }
      };
      map.on("zoomend", draw);
      if (points.length > 0)
        map.fitBounds(L.latLngBounds(points.map((p): [number, number] => [p.latitude, p.longitude])).pad(0.1), {
          maxZoom: 15,
        });
      else map.fitBounds(ISLAND_VIEW);
      draw();
    },
    [points, tiles, t, localise],
  );

  return (
    <MapFrame
      element={element}
      failed={failed}
      failedText={t("browse.map.failed")}
      intro={
        <p role="status" className="text-sm text-slate-700">
          {points.length === 0 ? t("browse.map.none") : t("browse.map.showing", { shown: points.length, total })}
        </p>
      }
      label={t("browse.map.label")}
      testId="results-map"
      height="h-96"
    />
  );
}
