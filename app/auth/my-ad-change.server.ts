import { data, type RouterContextProvider, redirect } from "react-router";
import type { DB } from "~/db/db.server";
import { parseAdNumber } from "~/lib/slug";
import { requestContext } from "~/services.server";
import { signedIn } from "./guard.server";

type Args = { request: Request; context: Readonly<RouterContextProvider>; params: { id?: string } };
type Change = (db: DB, userId: string, id: number) => Promise<{ ok: true } | { ok: false; code: string }>;
/** The change and its flash, chosen from the request once the guard let it through; null: a bad request (400). */
type Choice = { change: Change; flash: string };

/**
 * A change to one of the owner's ads posted from My Ads (renew, 'Still
 * available', 'No longer available'): guarded, then back to My Ads with the
 * flash that says what happened. Someone else's ad is a 404; a hidden one 403.
 */
export async function changeOwnAd(
  { request, context, params }: Args,
  choose: Choice | ((request: Request) => Promise<Choice | null>),
) {
  const { db } = context.get(requestContext);
  // A cross-site write is a plain 403 here (the guard's own answer), before the body is read.
  const user = await signedIn.user({ request, context });
  const chosen = typeof choose === "function" ? await choose(request) : choose;
  if (!chosen) throw data(null, { status: 400 });
  const { change, flash } = chosen;
  const id = parseAdNumber(params.id);
  const result = id === null ? null : await change(db, user.id, id);
  if (!result) throw data(null, { status: 404 });
  if (!result.ok) throw data(null, { status: result.code === "listing.hidden" ? 403 : 404 });
  return redirect(`/dashboard?${flash}=1`);
}

/** These changes are POSTs from the My Ads list; a GET goes back there. */
export async function backToMyAds({ request, context }: Omit<Args, "params">) {
  await signedIn.user({ request, context });
  return redirect("/dashboard");
}
