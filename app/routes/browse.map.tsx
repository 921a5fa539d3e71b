import { Link, useLocation } from "react-router";
import ResultsMap from "~/components/browse/results-map";
import { useEnhanced } from "~/components/forms/use-enhanced";
import { useTranslation } from "~/i18n";
import { loadMapPoints } from "~/pages/map-points.server";
import type { MapPoints } from "~/schemas/browse-view";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/browse.map";
import "virtual:catalogue/browse";

// /browse/map?{the browse filters}: the first results of those filters as map
// points (ADR 053). The browse page's 'Show map' loads this route
// with a fetcher: React Router then fetches this module on demand, so the map
// and Leaflet are no part of the list page's first load. Opened directly it is
// a page of its own, shareable; without JavaScript it points back to the list.

export const meta: Route.MetaFunction = () => [{ name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, phones } = context.get(requestContext);
  return loadMapPoints(db, new URL(request.url), phones.enabled);
}

export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  // A failed request (offline) must not replace the browse page with an error page: the map says so instead.
  const found: MapPoints | null = await serverLoader().catch(() => null);
  return { found, ResultsMap };
}

export default function BrowseMap({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { search } = useLocation();
  // Until the page has hydrated (or without JavaScript) there is no map to draw.
  const enhanced = useEnhanced();
  // The server's points on a first load; after a client navigation, what clientLoader found (null: failed).
  const found = "ResultsMap" in loaderData ? loaderData.found : loaderData;
  return (
    <div className="mx-auto max-w-6xl px-4 py-6">
      <h1 className="text-2xl font-bold tracking-tight">{t("browse.map.label")}</h1>
      <div className="mt-4">
        {!enhanced ? (
          <p>{t("browse.map.needsScript")}</p>
        ) : found ? (
          <ResultsMap points={found.points} total={found.total} tiles={found.tiles} />
        ) : (
          <p role="alert">{t("browse.map.failed")}</p>
        )}
      </div>
      <p className="mt-4">
        <Link to={`/browse${search}`} className="font-medium text-brand-700 underline">
          {t("browse.map.backToList")}
        </Link>
      </p>
    </div>
  );
}
