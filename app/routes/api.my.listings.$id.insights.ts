import { errorResponse, jsonResponse, methodNotAllowed } from "~/api/responses";
import { getSessionUser } from "~/auth/auth.server";
import { parseAdNumber } from "~/lib/slug";
import { ownerListingInsights } from "~/models/listing-daily-counts.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/api.my.listings.$id.insights";

// GET /api/my/listings/{id}/insights: an owner's own ad's last 30 days (ADR 089), read
// with the signed-in session's cookie. Anyone else, signed out, suspended or another
// owner, gets the answer a missing ad gets: the API says nothing of whose ad it is.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db } = context.get(requestContext);
  const user = await getSessionUser(request, context);
  const id = parseAdNumber(params.id);
  const insights = user && id ? await ownerListingInsights(db, user.id, id) : null;
  if (!insights) return errorResponse(404, { error: "Ad not found" });
  return jsonResponse(insights);
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
