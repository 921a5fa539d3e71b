import { currentTime } from "~/lib/clock";
import { retryAfterHeaders } from "~/limits/rate-limit.server";
import { findListingByIdOrSlug } from "~/models/listing.server";
import { trackListingView } from "~/models/view-tracking.server";
import { MAX_VIEW_COUNT_BYTES, readBody } from "~/security/body-limit.server";
import { isCrossSite } from "~/security/origin.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/api.update-view-count";

// POST /updateViewCount {adId}: the original cloud function's compatible alias.
// Counts a view for the caller's browser session with the
// same rules as the listing page (app/models/view-tracking.server.ts).

const noStore = { "Cache-Control": "no-store" };

function methodNotAllowed() {
  return Response.json({ error: "Method not allowed" }, { status: 405, headers: { ...noStore, Allow: "POST" } });
}

/** The ad number (or slug) from the JSON body, or null when missing or malformed. */
function parseAdId(body: unknown): string | null {
  if (typeof body !== "object" || body === null || !("adId" in body)) return null;
  const { adId } = body as { adId: unknown };
  if (typeof adId === "number") return Number.isSafeInteger(adId) && adId > 0 ? String(adId) : null;
  if (typeof adId !== "string") return null;
  const value = adId.trim();
  return /^[a-z0-9-]{1,200}$/i.test(value) ? value : null;
}

export function loader() {
  return methodNotAllowed();
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const { db, env, secrets, limiter, clientIp } = context.get(requestContext);
  // Another site's page must not make its visitors count views here (our cookies stay
  // home with SameSite=Lax, so each such request would count as a new visitor).
  if (isCrossSite(request, env.siteUrl)) {
    return Response.json({ error: "Cross-site requests are not allowed" }, { status: 403, headers: noStore });
  }
  // The original client sends JSON; the Content-Type is not required.
  const read = await readBody(request, { maxBytes: MAX_VIEW_COUNT_BYTES, kinds: ["json"] });
  const adId = read.ok ? parseAdId(read.body) : null;
  if (!adId) return Response.json({ error: "Ad ID is required" }, { status: 400, headers: noStore });

  const listing = await findListingByIdOrSlug(db, adId);
  if (!listing) return Response.json({ error: "Ad not found" }, { status: 404, headers: noStore });

  const now = currentTime();
  const tracked = await trackListingView(db, request, Number(listing.id), {
    visitorSalt: secrets.visitorSalt,
    visitorSecret: secrets.sessionSecret,
    secure: env.siteUrl.startsWith("https:"),
    now,
    limit: { limiter, clientIp },
  });
  const headers = new Headers(tracked?.headers);
  headers.set("Cache-Control", "no-store");
  if (tracked?.refused) {
    for (const [name, value] of Object.entries(retryAfterHeaders(tracked.refused))) headers.set(name, value);
    return Response.json(
      { error: "Too many views counted from this browser. Please try again later." },
      { status: 429, headers },
    );
  }
  return Response.json(
    {
      adId: listing.adNumber,
      totalViews: tracked?.views ?? listing.views,
      uniqueViews: tracked?.uniqueViews ?? listing.uniqueViews,
      lastViewed: tracked?.counted ? now.toISOString() : listing.lastViewed,
      counted: tracked?.counted ?? false,
    },
    { headers },
  );
}
