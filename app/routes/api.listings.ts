import { listAdsResponse } from "~/api/listings.server";
import { methodNotAllowed } from "~/api/responses";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/api.listings";

// Serves /api/listings, /getAdsForSEO and /getAdsByUniversity/{university}.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, phones, counts } = context.get(requestContext);
  const university = "university" in params ? params.university : undefined;
  return listAdsResponse(db, new URL(request.url).searchParams, { university }, phones.enabled, counts);
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
