import { getAdResponse } from "~/api/listings.server";
import { methodNotAllowed } from "~/api/responses";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/api.listings.$idOrSlug";

// Serves /api/listings/{idOrSlug} and /getAdForSEO/{idOrSlug}.
export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, phones } = context.get(requestContext);
  return getAdResponse(db, params.idOrSlug, phones.enabled);
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
