import { type ComponentType, useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { useEnhanced } from "~/components/forms/use-enhanced";
import { useLocalePath, useTranslation } from "~/i18n";
import type { MapPoints } from "~/schemas/browse-view";
import "virtual:catalogue/browse";

/** What the /browse/map route hands over in the browser: the points (null: the request failed), and the map. */
type MapRoute = { found: MapPoints | null; ResultsMap: ComponentType<MapPoints> };

/**
 * 'Show map' (ADR 053): the results of the same filters on a map.
 * The map arrives with the /browse/map route module, which React Router
 * fetches only on the first click, so it adds nothing to this page's first
 * load. Without JavaScript there is no map, so no button: the list is the page.
 * Before hydration it is an empty box of the button's height.
 */
export function MapToggle({ query }: { query: string }) {
  const { t } = useTranslation();
  const localise = useLocalePath();
  const enhanced = useEnhanced();
  const [open, setOpen] = useState(false);
  const fetcher = useFetcher<MapRoute>();
  const { load } = fetcher;
  const href = localise(`/browse/map${query ? `?${query}` : ""}`);
  // Open, the map follows the filters.
  useEffect(() => {
    if (open) void load(href);
  }, [open, href, load]);
  // Its room is kept from the first paint, so the button appearing once the page hydrates moves
  // nothing below it; a browser without JavaScript gets no map and no room (`noscript:`).
  if (!enhanced) return <div data-testid="map-room" className="mt-4 min-h-11 noscript:hidden" />;
  const data = fetcher.data;
  return (
    <div className="mt-4">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="min-h-11 rounded-lg border border-slate-300 px-4 font-semibold text-brand-800"
      >
        {t(open ? "browse.map.hide" : "browse.map.show")}
      </button>
      {open ? (
        <div className="mt-3">
          {!data ? (
            <p role="status" className="text-sm text-slate-700">
              {t("browse.map.loading")}
            </p>
          ) : data.found ? (
            <data.ResultsMap points={data.found.points} total={data.found.total} tiles={data.found.tiles} />
          ) : (
            <p role="alert" className="text-sm text-amber-900">
              {t("browse.map.failed")}
            </p>
          )}
        </div>
      ) : null}
    </div>
  );
}
