import { createHash } from "node:crypto";
import { isbot } from "isbot";
import type { Logger } from "pino";
import { invalidateViewCounts } from "~/cache/invalidation.server";
import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import type { LimitSubject, RateLimiter } from "~/limits/rate-limit.server";
import { addDailyCounts, colomboDay } from "~/models/listing-daily-counts.server";
import { ID_PATTERN, newRandomId, readCookie, VISITOR_COOKIE, visitorIdentity } from "~/security/visitor-id.server";

/**
 * View counting: once per browser session
 * per listing, done on the server with two cookies instead of the original's
 * session storage. The session cookie has no Max-Age, so it ends when the
 * browser closes; the visitor cookie (signed: app/security/visitor-id.server.ts)
 * lasts a year and drives unique views. Only salted hashes of the ids reach
 * the database.
 */
export const VIEW_SESSION_COOKIE = "bodima_vs";
export const VIEW_VISITOR_COOKIE = VISITOR_COOKIE;

export type ListingView = { listingId: number; sessionKey: string; visitorKey: string; viewedAt: string };

/** Rows per statement: well under SQLite's and PostgreSQL's limits on bound parameters. */
const VIEW_CHUNK = 200;

/**
 * Writes a batch of views in one transaction (the page-view buffer flushes
 * once a second, startViewCounter below): a view counts once per
 * browser session (sessionKey) and listing, a unique view once per visitor
 * (visitorKey). Views of listings deleted meanwhile are dropped. Each counted
 * view also adds to its listing's figure for the day it was seen (ADR 089), in
 * the same transaction. Returns the views that counted.
 */
export async function recordListingViews(db: DB, views: readonly ListingView[]): Promise<ListingView[]> {
  if (views.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    const counted: CountedView[] = [];
    for (let i = 0; i < views.length; i += VIEW_CHUNK)
      counted.push(...(await recordChunk(trx, views.slice(i, i + VIEW_CHUNK))));
    const perListing = new Map<number, { views: number; unique: number; lastViewed: string }>();
    // A visitor new to a listing counts once as unique, even with two sessions in one batch.
    const uniqueCounted = new Set<string>();
    for (const { view, newVisitor } of counted) {
      const totals = perListing.get(view.listingId) ?? { views: 0, unique: 0, lastViewed: view.viewedAt };
      totals.views += 1;
      if (view.viewedAt > totals.lastViewed) totals.lastViewed = view.viewedAt;
      const visitor = `${view.listingId}:${view.visitorKey}`;
      if (newVisitor && !uniqueCounted.has(visitor)) totals.unique += 1;
      uniqueCounted.add(visitor);
      perListing.set(view.listingId, totals);
    }
    // One narrow row per listing (ADR 111): the listing's own row is not rewritten.
    const totals = [...perListing].map(([listingId, t]) => ({
      listingId,
      views: t.views,
      uniqueViews: t.unique,
      lastViewed: t.lastViewed,
    }));
    for (let i = 0; i < totals.length; i += VIEW_CHUNK) {
      await trx
        .insertInto("listing_counters")
        .values(totals.slice(i, i + VIEW_CHUNK))
        .onConflict((oc) =>
          oc.column("listingId").doUpdateSet((eb) => ({
            views: eb("listing_counters.views", "+", eb.ref("excluded.views")),
            uniqueViews: eb("listing_counters.uniqueViews", "+", eb.ref("excluded.uniqueViews")),
            lastViewed: eb.ref("excluded.lastViewed"),
          })),
        )
        .execute();
    }
    await addDailyCounts(
      trx,
      counted.map(({ view }) => ({ listingId: view.listingId, day: colomboDay(new Date(view.viewedAt)), views: 1 })),
    );
    await invalidateViewCounts(trx, [...perListing.keys()]);
    return counted.map(({ view }) => view);
  });
}

type CountedView = { view: ListingView; newVisitor: boolean };

async function recordChunk(trx: DB, chunk: readonly ListingView[]): Promise<CountedView[]> {
  const listingIds = [...new Set(chunk.map((v) => v.listingId))];
  const existing = new Set(
    (await trx.selectFrom("listings").select("id").where("id", "in", listingIds).execute()).map((r) => r.id),
  );
  const rows = chunk.filter((v) => existing.has(v.listingId));
  if (rows.length === 0) return [];
  const seen = new Set(
    (
      await trx
        .selectFrom("listing_views")
        .select(["listingId", "visitorKey"])
        .where("listingId", "in", listingIds)
        .where("visitorKey", "in", [...new Set(rows.map((v) => v.visitorKey))])
        .execute()
    ).map((r) => `${r.listingId}:${r.visitorKey}`),
  );
  const inserted = await trx
    .insertInto("listing_views")
    .values(
      rows.map(({ listingId, sessionKey, visitorKey, viewedAt }) => ({ listingId, sessionKey, visitorKey, viewedAt })),
    )
    .onConflict((oc) => oc.columns(["listingId", "sessionKey"]).doNothing())
    .returning(["listingId", "sessionKey"])
    .execute();
  const insertedKeys = new Set(inserted.map((r) => `${r.listingId}:${r.sessionKey}`));
  const counted: CountedView[] = [];
  for (const view of rows) {
    // delete: a pair repeated within the chunk counts once.
    if (!insertedKeys.delete(`${view.listingId}:${view.sessionKey}`)) continue;
    counted.push({ view, newVisitor: !seen.has(`${view.listingId}:${view.visitorKey}`) });
  }
  return counted;
}

/**
 * Counts one view at once (the JSON endpoint POST /updateViewCount, which
 * answers with the new counts) and returns the listing's current counts.
 */
export async function recordListingView(
  db: DB,
  listingId: number,
  keys: { sessionKey: string; visitorKey: string },
  now = currentTime(),
): Promise<{ views: number; uniqueViews: number; counted: boolean }> {
  const counted = await recordListingViews(db, [{ listingId, ...keys, viewedAt: now.toISOString() }]);
  return { ...(await viewCountsOf(db, listingId)), counted: counted.length > 0 };
}

/** A listing's view counts so far (0 when never viewed). */
export async function viewCountsOf(db: DB, listingId: number): Promise<{ views: number; uniqueViews: number }> {
  const row = await db
    .selectFrom("listing_counters")
    .select(["views", "uniqueViews"])
    .where("listingId", "=", listingId)
    .executeTakeFirst();
  return { views: row?.views ?? 0, uniqueViews: row?.uniqueViews ?? 0 };
}

/**
 * Page views are buffered in memory and written in one transaction a second
 * (ADR 014: no write per request, so a cached listing page can be served while
 * its view is counted). stop() writes what is left: nothing acknowledged is
 * lost on a clean shutdown (server.ts calls it on SIGTERM).
 */
export type ViewCounter = {
  /** Whether this browser session's view of the listing was queued recently (a reload). */
  seen(listingId: number, sessionKey: string): boolean;
  add(view: ListingView): void;
  /**
   * A view still being decided (its limit asked over IPC or Redis): stop() waits
   * for it before the last flush, so a view answered just before SIGTERM is kept.
   */
  track(deciding: Promise<void>): void;
  flush(): Promise<void>;
  stop(): Promise<void>;
};

/** Recently queued (listing, session) pairs remembered to skip reloads without a database read. */
const RECENT_LIMIT = 50_000;
/** Views kept while the database cannot be written; past this the oldest are given up (and logged). */
const PENDING_LIMIT = 200_000;

export function startViewCounter({
  db,
  log,
  intervalMs = 1_000,
}: {
  db: DB;
  log: Logger;
  intervalMs?: number;
}): ViewCounter {
  let pending: ListingView[] = [];
  const recent = new Set<string>();
  let running: Promise<void> = Promise.resolve();
  const deciding = new Set<Promise<void>>();

  function flush(): Promise<void> {
    running = running.then(async () => {
      if (pending.length === 0) return;
      const batch = pending;
      pending = [];
      try {
        await recordListingViews(db, batch);
      } catch (error) {
        // Kept for the next flush: a database that is down for a moment loses no view.
        pending = batch.concat(pending);
        const dropped = pending.length - PENDING_LIMIT;
        if (dropped > 0) pending = pending.slice(dropped);
        log.error({ err: error, views: batch.length, dropped: Math.max(0, dropped) }, "could not write page views");
      }
    });
    return running;
  }

  const timer = setInterval(() => void flush(), intervalMs);
  timer.unref();

  return {
    seen: (listingId, sessionKey) => recent.has(`${listingId}:${sessionKey}`),
    add(view) {
      const key = `${view.listingId}:${view.sessionKey}`;
      if (recent.size >= RECENT_LIMIT) recent.delete(recent.values().next().value as string);
      recent.add(key);
      pending.push(view);
    },
    track(decision) {
      const settled = decision.then(
        () => undefined,
        () => undefined,
      );
      deciding.add(settled);
      void settled.then(() => deciding.delete(settled));
    },
    flush,
    async stop() {
      clearInterval(timer);
      await Promise.all(deciding);
      await flush();
    },
  };
}

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
 * visitors, ADR 017).
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
    return {
      ...(await viewCountsOf(db, listingId)),
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
 * Counts a page view of a listing through the buffer (startViewCounter).
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
