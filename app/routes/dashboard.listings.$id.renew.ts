import { data, redirect } from "react-router";
import { parseAdNumber } from "~/lib/slug";
import type { Route } from "./+types/dashboard.listings.$id.renew";
import { isSameOrigin, requireUser } from "~/auth/auth.server";
import { renewOwnerListing } from "~/models/my-listings.server";
import { requestContext } from "~/services.server";

/** Renewing is a POST from the My Ads list; a GET goes back there. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context);
  return redirect("/dashboard");
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { db, env } = context.get(requestContext);
  const user = await requireUser(request, context);
  if (!isSameOrigin(request, env.siteUrl)) throw data(null, { status: 403 });
  const id = parseAdNumber(params.id);
  const result = id === null ? null : await renewOwnerListing(db, user.id, id);
  if (!result) throw data(null, { status: 404 });
  if (!result.ok) throw data(null, { status: result.reason === "hidden" ? 403 : 404 });
  return redirect("/dashboard?renewed=1");
}
