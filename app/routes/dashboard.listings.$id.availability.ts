import { backToMyAds, changeOwnAd } from "~/auth/my-ad-change.server";
import { markOwnerListingLet, renewOwnerListing } from "~/models/listing-availability.server";
import { readForm } from "~/security/read-form.server";
import type { Route } from "./+types/dashboard.listings.$id.availability";

// 'Still available' and 'No longer available' from My Ads (ADR 056).
export const loader = (args: Route.LoaderArgs) => backToMyAds(args);

export const action = (args: Route.ActionArgs) =>
  changeOwnAd(args, async (request) => {
    const available = (await readForm(request)).get("available");
    if (available === "yes") return { change: renewOwnerListing, flash: "confirmed" };
    if (available === "no") return { change: markOwnerListingLet, flash: "let" };
    return null;
  });
