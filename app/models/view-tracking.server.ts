import { createHash, randomBytes } from "node:crypto";
import { isbot } from "isbot";
import type { DB } from "../db/db.server";
import { ipLimitKey } from "../limits/client-ip.server";
import type { RateLimiter } from "../limits/rate-limit.server";
import { recordListingView } from "./listing.server";
import type { ViewCounter } from "./view-counter.server";
import { currentTime } from "../lib/clock";

/**
 * View counting (SPEC.md section 4 "View tracking"): once per browser session
 * per listing, done on the server with two cookies instead of the original's
 * session storage. The session cookie has no Max-Age, so it ends when the
 * browser closes; the visitor cookie lasts a year and drives unique views.
 * Only salted hashes of the cookie values reach the database.
 */
export const VIEW_SESSION_COOKIE = "bodima_vs";
export const VIEW_VISITOR_COOKIE = "bodima_vid";
const VISITOR_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const ID_PATTERN = /^[a-f0-9]{32}$/;

export type ViewTrackingOptions = {
  visitorSalt: string;
  /** Adds the Secure attribute (the site is served over https). */
  secure: boolean;
  now?: Date;
  /**
   * Caps counted views per visitor (limit "viewVisitor"): the visitor cookie,
   * else the client IP for clients that keep no cookies.
   */
  limit: { limiter: RateLimiter; clientIp: string };
};

export type TrackedView = {
  views: number;
  uniqueViews: number;
  counted: boolean;
  /** Set-Cookie headers for the response (empty when both cookies were already set). */
  headers: Headers;
  /** Set when the visitor has counted too many views this hour: this one was not counted. */
  refused?: { retryAfterSeconds: number };
};

/**
 * Whether a request may count as someone looking at a listing: not a HEAD
 * request, not a link prefetch or prerender, not a crawler.
 */
/** What view counting reads of a request: a fetch Request, or the page cache's view of a Node request. */
export type ViewRequest = { method: string; headers: { get(name: string): string | null } };

export function isCountableViewRequest(request: ViewRequest): boolean {
  if (request.method !== "GET" && request.method !== "POST") return false;
  const purpose = ["purpose", "sec-purpose", "x-purpose", "x-moz"]
    .map((name) => request.headers.get(name)?.toLowerCase() ?? "")
    .join(" ");
  if (purpose.includes("prefetch") || purpose.includes("preview")) return false;
  const userAgent = request.headers.get("user-agent");
  if (!userAgent) return false;
  return !isbot(userAgent);
}

export function readCookie(cookieHeader: string | null, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const separator = part.indexOf("=");
    if (separator === -1) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return null;
}

function validId(value: string | null): string | null {
  return value && ID_PATTERN.test(value) ? value : null;
}

function newId(): string {
  return randomBytes(16).toString("hex");
}

function serializeCookie(name: string, value: string, options: { secure: boolean; maxAge?: number }): string {
  const parts = [`${name}=${value}`, "Path=/"];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  parts.push("HttpOnly", "SameSite=Lax");
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

export function hashViewerId(salt: string, kind: "session" | "visitor", id: string): string {
  return createHash("sha256").update(`${salt}:${kind}:${id}`).digest("hex");
}

/**
 * The caller's session and visitor ids from the request's cookies, with new
 * ones (and their Set-Cookie headers) where a cookie is missing or malformed.
 */
export function viewerIdentity(request: ViewRequest, options: { secure: boolean }) {
  const cookieHeader = request.headers.get("cookie");
  const headers = new Headers();
  let sessionId = validId(readCookie(cookieHeader, VIEW_SESSION_COOKIE));
  let visitorId = validId(readCookie(cookieHeader, VIEW_VISITOR_COOKIE));
  const returning = visitorId !== null;
  if (!sessionId) {
    sessionId = newId();
    headers.append("Set-Cookie", serializeCookie(VIEW_SESSION_COOKIE, sessionId, { secure: options.secure }));
  }
  if (!visitorId) {
    visitorId = newId();
    headers.append(
      "Set-Cookie",
      serializeCookie(VIEW_VISITOR_COOKIE, visitorId, { secure: options.secure, maxAge: VISITOR_MAX_AGE_SECONDS }),
    );
  }
  return { sessionId, visitorId, returning, headers };
}

/**
 * Counts the request as a view of the listing when it is countable; returns
 * null (and sets no cookies) for HEAD requests, prefetches and bots, so the
 * caller shows the counts it already has.
 */
export async function trackListingView(
  db: DB,
  request: Request,
  listingId: number,
  options: ViewTrackingOptions,
): Promise<TrackedView | null> {
  if (!isCountableViewRequest(request)) return null;
  const { sessionId, visitorId, returning, headers } = viewerIdentity(request, options);
  const visitorKey = hashViewerId(options.visitorSalt, "visitor", visitorId);
  // A brand-new cookie proves nothing (a script can drop it every time), so first visits count per IP.
  const limitKey = returning ? `visitor:${visitorKey}` : `ip:${ipLimitKey(options.limit.clientIp)}`;
  const allowed = await options.limit.limiter.check("viewVisitor", limitKey);
  if (!allowed.ok) {
    const counts = await db
      .selectFrom("listings")
      .select(["views", "uniqueViews"])
      .where("id", "=", listingId)
      .executeTakeFirst();
    return { views: counts?.views ?? 0, uniqueViews: counts?.uniqueViews ?? 0, counted: false, headers, refused: allowed };
  }
  const result = await recordListingView(
    db,
    listingId,
    { sessionKey: hashViewerId(options.visitorSalt, "session", sessionId), visitorKey },
    options.now,
  );
  // Only views that counted use up the allowance (reloads in one session count once anyway).
  if (result.counted) await options.limit.limiter.record("viewVisitor", limitKey);
  return { ...result, headers };
}

/**
 * Counts a page view of a listing through the buffer (app/models/view-counter.server.ts).
 * The cookies are known at once, so the page (cached or not) is sent without
 * waiting; `queued` settles once the view passed the visitor's limit and
 * joined the next batch. Null for requests that do not count (bots, HEAD, prefetches).
 */
export function queueListingView(
  request: ViewRequest,
  listingId: number,
  options: Omit<ViewTrackingOptions, "now"> & { counter: ViewCounter },
): { headers: Headers; queued: Promise<void> } | null {
  if (!isCountableViewRequest(request)) return null;
  const { sessionId, visitorId, returning, headers } = viewerIdentity(request, options);
  const sessionKey = hashViewerId(options.visitorSalt, "session", sessionId);
  if (options.counter.seen(listingId, sessionKey)) return { headers, queued: Promise.resolve() };
  const visitorKey = hashViewerId(options.visitorSalt, "visitor", visitorId);
  const limitKey = returning ? `visitor:${visitorKey}` : `ip:${ipLimitKey(options.limit.clientIp)}`;
  const { limiter } = options.limit;
  const queued = (async () => {
    if (!(await limiter.check("viewVisitor", limitKey)).ok) return;
    options.counter.add({ listingId, sessionKey, visitorKey, viewedAt: currentTime().toISOString() });
    await limiter.record("viewVisitor", limitKey);
  })();
  return { headers, queued };
}
