import { findListingByIdOrSlug } from "~/models/listing.server";
import { trackListingView } from "~/models/view-tracking.server";
import { retryAfterHeaders } from "~/limits/rate-limit.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/api.update-view-count";
import { currentTime } from "~/lib/clock";

// POST /updateViewCount {adId}: the original cloud function's compatible alias
// (SPEC.md section 7). Counts a view for the caller's browser session with the
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

/**
 * Browsers say where a request comes from; another site's page must not make
 * its visitors count views here (our cookies stay home with SameSite=Lax, so
 * each such request would count as a new visitor).
 */
function isCrossSite(request: Request, siteUrl: string): boolean {
  if (request.headers.get("sec-fetch-site") === "cross-site") return true;
  const origin = request.headers.get("origin");
  return origin !== null && origin !== new URL(request.url).origin && origin !== new URL(siteUrl).origin;
}

const MAX_BODY_BYTES = 4096;

async function readJson(request: Request): Promise<unknown> {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) return null;
  const text = await request.text().catch(() => "");
  if (text.length > MAX_BODY_BYTES) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export function loader() {
  return methodNotAllowed();
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const { db, env, secrets, limiter, clientIp } = context.get(requestContext);
  if (isCrossSite(request, env.siteUrl)) {
    return Response.json({ error: "Cross-site requests are not allowed" }, { status: 403, headers: noStore });
  }
  // The original client sends JSON; the Content-Type is not required.
  const adId = parseAdId(await readJson(request));
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
