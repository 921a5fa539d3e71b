import { createHash } from "node:crypto";
import { isbot } from "isbot";
import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import type { LimitSubject, RateLimiter } from "~/limits/rate-limit.server";
import { ID_PATTERN, newRandomId, readCookie, VISITOR_COOKIE, visitorIdentity } from "~/security/visitor-id.server";
import { recordListingView } from "./listing.server";
import type { ViewCounter } from "./view-counter.server";

/**
 * View counting (SPEC.md section 4 "View tracking"): once per browser session
 * per listing, done on the server with two cookies instead of the original's
 * session storage. The session cookie has no Max-Age, so it ends when the
 * browser closes; the visitor cookie (signed: app/security/visitor-id.server.ts)
 * lasts a year and drives unique views. Only salted hashes of the ids reach
 * the database.
 */
export const VIEW_SESSION_COOKIE = "bodima_vs";
export const VIEW_VISITOR_COOKIE = VISITOR_COOKIE;

export type ViewTrackingOptions = {
  visitorSalt: string;
  /** The app's secret that signs visitor ids (secrets.sessionSecret). */
  visitorSecret: string;
  /** Adds the Secure attribute (the site is served over https). */
  secure: boolean;
  now?: Date;
  /**
   * Caps counted views per visitor (limit "viewVisitor"): the signed visitor
   * cookie, else the client IP for clients that keep no cookies; and, with the
   * same rule, counted views of one listing from one network origin
   * (IPv4 /24, IPv6 /64), so ids collected by a script do not add up either.
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
  for (const name of PURPOSE_HEADERS) {
    const purpose = request.headers.get(name)?.toLowerCase();
    if (purpose && (purpose.includes("prefetch") || purpose.includes("preview"))) return false;
  }
  const userAgent = request.headers.get("user-agent");
  return !!userAgent && !isCrawler(userAgent);
}

/** Headers by which browsers say a request is a prefetch or a preview, not someone looking. */
const PURPOSE_HEADERS = ["purpose", "sec-purpose", "x-purpose", "x-moz"] as const;

/**
 * isbot's answer per User-Agent string, kept for the last few hundred seen: its
 * pattern is long, and a listing page served from the page cache asked it on
 * every request, while visitors share a handful of browser strings.
 */
const crawlerAnswers = new Map<string, boolean>();
const CRAWLER_ANSWERS_KEPT = 500;

function isCrawler(userAgent: string): boolean {
  const known = crawlerAnswers.get(userAgent);
  if (known !== undefined) return known;
  const answer = isbot(userAgent);
  if (crawlerAnswers.size >= CRAWLER_ANSWERS_KEPT) crawlerAnswers.clear();
  crawlerAnswers.set(userAgent, answer);
  return answer;
}

function validId(value: string | null): string | null {
  return value && ID_PATTERN.test(value) ? value : null;
}

function serializeCookie(name: string, value: string, options: { secure: boolean }): string {
  const parts = [`${name}=${value}`, "Path=/"];
  parts.push("HttpOnly", "SameSite=Lax");
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

export function hashViewerId(salt: string, kind: "session" | "visitor", id: string): string {
  return createHash("sha256").update(`${salt}:${kind}:${id}`).digest("hex");
}

/**
 * Session keys hashed lately (salt and session id to key): a browser asks for
 * page after page in one session, and each listing page needs its key to know
 * whether its view was already counted.
 */
const sessionKeys = new Map<string, string>();
const SESSION_KEYS_KEPT = 10_000;

function sessionKeyOf(salt: string, sessionId: string): string {
  const memo = `${salt}:${sessionId}`;
  let key = sessionKeys.get(memo);
  if (key === undefined) {
    key = hashViewerId(salt, "session", sessionId);
    if (sessionKeys.size >= SESSION_KEYS_KEPT) sessionKeys.clear();
    sessionKeys.set(memo, key);
  }
  return key;
}

/**
 * The caller's session and visitor ids from the request's cookies, with new
 * ones (and their Set-Cookie headers) where a cookie is missing or malformed.
 * Only a visitor id this server signed is kept (`returning`); any other value
 * gets a new id, and the request counts no view (`forged`: a script making up
 * visitors, issue 9).
 */
export function viewerIdentity(request: ViewRequest, options: { secure: boolean; visitorSecret: string }) {
  const cookieHeader = request.headers.get("cookie");
  const cookies: string[] = [];
  let sessionId = validId(readCookie(cookieHeader, VIEW_SESSION_COOKIE));
  const visitor = visitorIdentity(cookieHeader, options.visitorSecret, options);
  const newSession = !sessionId;
  if (!sessionId) {
    sessionId = newRandomId();
    cookies.push(serializeCookie(VIEW_SESSION_COOKIE, sessionId, { secure: options.secure }));
  }
  if (visitor.setCookie) cookies.push(visitor.setCookie);
  return {
    sessionId,
    /** The session began with this request: it has counted no view yet. */
    newSession,
    visitorId: visitor.visitorId,
    returning: !visitor.issued,
    forged: visitor.forged,
    /** The Set-Cookie lines (the page cache's fast path writes them as they are). */
    cookies,
    /** The same lines as fetch Headers, for a route's Response. */
    get headers(): Headers {
      return setCookieHeaders(cookies);
    },
  };
}

/** A view on its way to the buffer, with the Set-Cookie lines for the response. */
export type QueuedView = { cookies: readonly string[]; queued: Promise<void> };

function setCookieHeaders(cookies: readonly string[]): Headers {
  const headers = new Headers();
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return headers;
}

/** Whose allowance a counted view uses up: the visitor's (else the IP's), and the listing's from this network. */
function viewSubject(
  listingId: number,
  returningVisitorKey: string | null,
  clientIp: string,
): LimitSubject<"viewVisitor"> {
  // A brand-new cookie proves nothing (a script can drop it every time), so first visits count per IP.
  return { visitor: returningVisitorKey, ip: clientIp, listing: listingId };
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
  const { sessionId, visitorId, returning, forged, headers } = viewerIdentity(request, options);
  const visitorKey = hashViewerId(options.visitorSalt, "visitor", visitorId);
  const subject = viewSubject(listingId, returning ? visitorKey : null, options.limit.clientIp);
  const allowed = forged ? null : await options.limit.limiter.check("viewVisitor", subject);
  if (!allowed?.ok) {
    const counts = await db
      .selectFrom("listings")
      .select(["views", "uniqueViews"])
      .where("id", "=", listingId)
      .executeTakeFirst();
    return {
      views: counts?.views ?? 0,
      uniqueViews: counts?.uniqueViews ?? 0,
      counted: false,
      headers,
      ...(allowed ? { refused: allowed } : {}),
    };
  }
  const result = await recordListingView(
    db,
    listingId,
    { sessionKey: hashViewerId(options.visitorSalt, "session", sessionId), visitorKey },
    options.now,
  );
  // Only views that counted use up the allowance (reloads in one session count once anyway).
  if (result.counted) await options.limit.limiter.record("viewVisitor", subject);
  return { ...result, headers };
}

/** The answer of a view decided at once (a reload, a forged cookie, a visitor already refused). */
const DECIDED: Promise<void> = Promise.resolve();

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
): QueuedView | null {
  if (!isCountableViewRequest(request)) return null;
  const { sessionId, newSession, visitorId, returning, forged, cookies } = viewerIdentity(request, options);
  if (forged) return { cookies, queued: DECIDED };
  const salt = options.visitorSalt;
  // A session that began with this request has counted nothing: its key is made when its view is kept.
  if (!newSession && options.counter.seen(listingId, sessionKeyOf(salt, sessionId)))
    return { cookies, queued: DECIDED };
  const visitorKey = returning ? hashViewerId(salt, "visitor", visitorId) : null;
  const subject = viewSubject(listingId, visitorKey, options.limit.clientIp);
  const { limiter } = options.limit;
  // A visitor this process already refused costs no hashing, no promise and no store round trip.
  if (limiter.knownRefusal("viewVisitor", subject)) return { cookies, queued: DECIDED };
  const queued = (async () => {
    if (!(await limiter.check("viewVisitor", subject)).ok) return;
    options.counter.add({
      listingId,
      sessionKey: sessionKeyOf(salt, sessionId),
      visitorKey: visitorKey ?? hashViewerId(salt, "visitor", visitorId),
      viewedAt: currentTime().toISOString(),
    });
    await limiter.record("viewVisitor", subject);
  })();
  options.counter.track(queued);
  return { cookies, queued };
}
