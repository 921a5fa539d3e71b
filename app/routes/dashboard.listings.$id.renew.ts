import { backToMyAds, changeOwnAd } from "~/auth/my-ad-change.server";
import { renewOwnerListing } from "~/models/listing-availability.server";
import type { Route } from "./+types/dashboard.listings.$id.renew";

/** Renewing is a POST from the My Ads list; a GET goes back there. */
export const loader = (args: Route.LoaderArgs) => backToMyAds(args);

export const action = (args: Route.ActionArgs) => changeOwnAd(args, { change: renewOwnerListing, flash: "renewed" });
