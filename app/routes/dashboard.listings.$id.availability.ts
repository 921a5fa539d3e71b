import { data, redirect } from "react-router";
import { signedIn } from "~/auth/guard.server";
import { parseAdNumber } from "~/lib/slug";
import { markOwnerListingLet, renewOwnerListing } from "~/models/owner-listings.server";
import { readForm } from "~/security/read-form.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/dashboard.listings.$id.availability";

// 'Still available' and 'No longer available' from My Ads (issue 13, point 4).

/** A POST from the My Ads list; a GET goes back there. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await signedIn.user({ request, context });
  return redirect("/dashboard");
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { db } = context.get(requestContext);
  // A cross-site write is a plain 403 here (the guard's own answer).
  const user = await signedIn.user({ request, context });
  const id = parseAdNumber(params.id);
  const available = (await readForm(request)).get("available");
  if (id === null || (available !== "yes" && available !== "no")) throw data(null, { status: 400 });
  const result =
    available === "yes" ? await renewOwnerListing(db, user.id, id) : await markOwnerListingLet(db, user.id, id);
  if (!result.ok) throw data(null, { status: result.code === "listing.hidden" ? 403 : 404 });
  return redirect(available === "yes" ? "/dashboard?confirmed=1" : "/dashboard?let=1");
}
