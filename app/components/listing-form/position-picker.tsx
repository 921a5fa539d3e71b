import type * as Leaflet from "leaflet";
import { useRef, useState } from "react";
import { addTiles, ISLAND_VIEW, useLeafletMap } from "~/components/map/leaflet-assets";
import { MapFrame } from "~/components/map/map-frame";
import { useTranslation } from "~/i18n";
import type { MapTileSource } from "~/schemas/browse-view";
import "virtual:catalogue/listing-form";

type Point = { latitude: number; longitude: number };

type Props = {
  /** Where the map opens: the typed position, else the chosen faculty, else the island. */
  start: Point | null;
  tiles: MapTileSource;
  /** Called with '6.79512, 79.90093' when the owner taps the map or drags the pin. */
  onPick: (coordinates: string) => void;
};

/**
 * 'Pick the place on a map' (ADR 053): a tap drops the pin, a drag
 * moves it, and the position field takes its numbers, so the pin and the typed
 * position are one value the server checks. Leaflet comes on the first open;
 * the pin works without tiles (a blank map still has its coordinates).
 */
export function PositionPicker({ start, tiles, onPick }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="min-h-11 rounded-lg border border-slate-300 px-4 font-semibold text-brand-800"
      >
        {t(open ? "listingForm.closeMap" : "listingForm.pickOnMap")}
      </button>
      {open ? <PickerMap start={start} tiles={tiles} onPick={onPick} /> : null}
    </div>
  );
}

function PickerMap({ start, tiles, onPick }: Props) {
  const { t } = useTranslation();
  const element = useRef<HTMLElement>(null);
  // The first values only: the map is not rebuilt while the owner types.
  const first = useRef({ start, tiles, onPick });
  first.current.onPick = onPick;
  const failed = useLeafletMap(
    element,
    {},
    (L, map) => {
      const { start: at, tiles: source } = first.current;
      addTiles(L, map, source);
      if (at) map.setView([at.latitude, at.longitude], 16);
      else map.fitBounds(ISLAND_VIEW);
      const pin = L.marker(at ? [at.latitude, at.longitude] : map.getCenter(), {
        draggable: true,
        keyboard: true,
        title: t("listingForm.pin"),
        icon: L.divIcon({ className: "", html: pinIcon(), iconSize: [28, 28], iconAnchor: [14, 28] }),
      });
      const pick = (latlng: Leaflet.LatLng) => {
        pin.setLatLng(latlng).addTo(map);
        first.current.onPick(`${latlng.lat.toFixed(5)}, ${latlng.lng.toFixed(5)}`);
      };
      if (at) pin.addTo(map);
      map.on("click", (event: Leaflet.LeafletMouseEvent) => pick(event.latlng));
      pin.on("dragend", () => pick(pin.getLatLng()));
    },
    [t],
  );

  return (
    <div className="mt-2">
      <MapFrame
        element={element}
        failed={failed}
        failedText={t("listingForm.mapFailed")}
        intro={<p className="text-sm text-slate-600">{t("listingForm.pickHint")}</p>}
        label={t("listingForm.mapLabel")}
        testId="position-map"
        height="h-72"
      />
    </div>
  );
}

/** A map pin drawn in our colours (no marker images to fetch). */
function pinIcon(): HTMLElement {
  const span = document.createElement("span");
  span.setAttribute("aria-hidden", "true");
  span.style.cssText =
    "display:block;width:28px;height:28px;border-radius:50% 50% 50% 0;background:#1e40af;border:3px solid #fff;transform:rotate(-45deg);box-shadow:0 1px 4px rgb(0 0 0/.4)";
  return span;
}
