import { data, redirect } from "react-router";
import { signedIn } from "~/auth/guard.server";
import { parseAdNumber } from "~/lib/slug";
import { renewOwnerListing } from "~/models/owner-listings.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/dashboard.listings.$id.renew";

/** Renewing is a POST from the My Ads list; a GET goes back there. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await signedIn.user({ request, context });
  return redirect("/dashboard");
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { db } = context.get(requestContext);
  // A cross-site write is a plain 403 here (the guard's own answer).
  const user = await signedIn.user({ request, context });
  const id = parseAdNumber(params.id);
  const result = id === null ? null : await renewOwnerListing(db, user.id, id);
  if (!result) throw data(null, { status: 404 });
  if (!result.ok) throw data(null, { status: result.code === "listing.hidden" ? 403 : 404 });
  return redirect("/dashboard?renewed=1");
}
