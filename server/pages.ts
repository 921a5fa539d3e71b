import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request as ExpressRequest, Response as ExpressResponse, NextFunction } from "express";
import type { RouterContextProvider } from "react-router";
import { hasSessionCookie } from "../app/auth/session-cookie";
import { hasSignedSessionCookie } from "../app/auth/session-signature.server";
import { type CachedPage, MAX_AGE_MS, type PageCache, sendCachedPage } from "../app/cache/page-cache.server";
import { type Accepted, acceptedEncodings, encodeMiss, etagOf } from "../app/cache/page-encoding.server";
import {
  cacheablePageKind,
  isListingPage,
  isSameForEveryone,
  normalisePageUrl,
  type PageKind,
} from "../app/cache/page-key";
import { type RenderHints, withRenderHints } from "../app/cache/render-hints.server";
import { pageFollowers as followers, measureRenderQueueWith, rendersRefused } from "../app/lib/metrics.server";
import { clientIpFrom, networkOrigin } from "../app/limits/client-ip.server";
import { queueListingView, type ViewCounter, type ViewRequest } from "../app/models/view-tracking.server";
import { dataSaverOn } from "../app/security/data-saver.server";
import { contentSecurityPolicy, cspHeaderName } from "../app/security/headers.server";
import { inlineHashes } from "../app/security/inline-hashes.server";
import { noteRenderWait } from "../app/security/request-log.server";
import type { Services } from "../app/services.server";
import { createBusyAnswers } from "./busy";
import { createRenderFlights } from "./render-flights";
import { createRenderGate, type Lane, type RenderGateOptions } from "./render-gate";
import { sendFetchResponse, toFetchRequest } from "./web-adapter";

/** `url` is the normalised URL rendered; `key` is it, with data saver's mark when on (ADR 090). */
type Target = { key: string; url: string; kind: PageKind; pathname: string; sameForEveryone: boolean };

/** Ends the key of a page rendered with data saver on: never a URL's end (a URL has no NUL). */
const SAVER_KEY = "\u0000saver";

/**
 * Headers of a rendered response that the cache sets itself or must not keep.
 * A route's own Cache-Control (the API's minute, the sitemap's hour) is kept.
 */
const NOT_KEPT = new Set([
  "connection",
  "content-encoding",
  "content-length",
  "content-security-policy",
  "content-security-policy-report-only",
  "date",
  "etag",
  "set-cookie",
  "transfer-encoding",
  "vary",
  "x-request-id",
]);

/**
 * Four renders under way per process at most; a request that would wait more than a second
 * for its render is told to come back (ADR 093).
 */
const RENDER_GATE = { slots: 4, budgetMs: 1000 };
const REFUSALS_LOG_EVERY_MS = 10_000;

/**
 * A request for a page being rendered waits for that render at most as long as the render gate
 * lets anyone wait, plus a render; a crowd on one page beyond 256 goes through the gate itself.
 */
const RENDER_FLIGHTS = { followMs: RENDER_GATE.budgetMs * 2, maxFollowers: 256 };

/** Photos (app/routes/photos.$key.ts) are read from storage, not rendered. */
const isPhotoPath = (url: string) => url.startsWith("/photos/");

/** How many URLs' targets are remembered; a flood of made-up URLs only empties the memo now and then. */
const TARGETS_KEPT = 20_000;
/** Longer URLs are worked out every time, so the memo stays within a few megabytes. */
const TARGET_URL_KEPT = 256;

export type PagesOptions = {
  services: Services;
  cache: PageCache;
  views: ViewCounter;
  handleRequest: (request: Request, context: RouterContextProvider) => Promise<Response>;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => RouterContextProvider;
  /** Security headers every response carries (without a nonce: a cached page brings its own CSP). */
  headers: Record<string, string>;
  /** The newest page invalidation this process has applied (ADR 061). */
  invalidationsSeen: () => number;
  /** Hands a page just kept to the other workers of the machine (ADR 061); nothing on a lone process. */
  share: (entry: CachedPage, seen: number) => void;
  /** Other limits for the render queue than RENDER_GATE's (tests). */
  renderGate?: Partial<RenderGateOptions>;
};

/**
 * Every page and resource route goes through here (ADR 012): a request the
 * cache may answer is rendered at its normalised URL and kept; a signed-in
 * one, or one for a private page, is rendered as it is and streamed. Listing
 * pages count their view in both cases, through the buffer.
 */
export function createPages({
  services,
  cache,
  views,
  handleRequest,
  getLoadContext,
  headers,
  invalidationsSeen,
  share,
  renderGate,
}: PagesOptions) {
  const { env } = services;
  const trustProxy = env.TRUST_PROXY;
  const secure = env.siteUrl.startsWith("https:");
  // One render starting per turn of the event loop, in arrival order (ADR 031), a few at once,
  // and a request that would wait too long told to come back (ADR 093).
  const gate = createRenderGate({ ...RENDER_GATE, ...renderGate });
  measureRenderQueueWith(() => gate.waiting);
  const sendBusy = createBusyAnswers({ siteName: env.SITE_NAME, headers });
  const refusals = { busy: 0, network: 0, late: 0 };
  let refusalsLogged = 0;
  // One render per page at a time: the same page's other requests wait for it (ADR 108).
  const flights = createRenderFlights(RENDER_FLIGHTS);
  /** The requests rendering a page others wait for: what tells them it is stored. */
  const landings = new WeakMap<ServerResponse, () => void>();

  // The target of each URL asked for lately: popular pages skip the patterns and the parameter sorting.
  const targets = new Map<string, Target | null>();

  /**
   * Where a request goes in the cache, or null when it is rendered for the visitor alone: a page
   * for someone signed in shows who they are. Only a session cookie this site signed counts: a
   * made-up one would make any page skip the cache, a cheap way to force renders. The API, the
   * sitemap and robots.txt read no session, so no cookie takes them past the cache.
   */
  function target(method: string | undefined, url: string, headers: IncomingMessage["headers"]): Target | null {
    if (!cache.enabled || (method !== "GET" && method !== "HEAD")) return null;
    const found = targetOf(url);
    if (!found || found.sameForEveryone) return found;
    const { cookie } = headers;
    if (hasSessionCookie(cookie) && hasSignedSessionCookie(cookie, services.secrets.sessionSecret)) return null;
    // A page with data saver on is another page (ADR 090): its own copy, under its own key.
    return dataSaverOn(cookie, headers["save-data"] as string | undefined)
      ? { ...found, key: found.url + SAVER_KEY }
      : found;
  }

  function targetOf(url: string): Target | null {
    const known = targets.get(url);
    if (known !== undefined) return known;
    const query = url.indexOf("?");
    const pathname = query === -1 ? url : url.slice(0, query);
    const kind = cacheablePageKind(pathname);
    const normalised = kind && normalisePageUrl(pathname, query === -1 ? "" : url.slice(query));
    const found = kind && {
      key: normalised as string,
      url: normalised as string,
      kind,
      pathname,
      sameForEveryone: isSameForEveryone(pathname),
    };
    if (url.length <= TARGET_URL_KEPT) {
      if (targets.size >= TARGETS_KEPT) targets.clear();
      targets.set(url, found || null);
    }
    return found || null;
  }

  /** Counts a view of a listing page (the document or its data); the Set-Cookie lines it needs. */
  function countView(req: IncomingMessage, pathname: string, listingId: number | undefined): readonly string[] {
    if (listingId === undefined || !isListingPage(pathname)) return [];
    const request: ViewRequest = {
      method: req.method ?? "GET",
      headers: { get: (name) => (req.headers[name.toLowerCase()] as string | undefined) ?? null },
    };
    const clientIp = clientIpFrom({
      socketAddress: req.socket.remoteAddress,
      forwardedFor: req.headers["x-forwarded-for"],
      trustProxy,
    });
    const queued = queueListingView(request, listingId, {
      visitorSalt: services.secrets.visitorSalt,
      visitorSecret: services.secrets.sessionSecret,
      secure,
      limit: { limiter: services.limiter, clientIp },
      counter: views,
    });
    queued?.queued.catch((error: unknown) => services.logger.error({ err: error }, "could not count a view"));
    return queued?.cookies ?? [];
  }

  /** Sends a stored page (or its stale copy while it is rendered again) as a hit. */
  function sendHit(req: IncomingMessage, res: ServerResponse, found: Target, entry: CachedPage): void {
    sendCachedPage(req, res, cache, entry, {
      headers,
      cookies: countView(req, found.pathname, entry.listingId),
      status: "HIT",
    });
  }

  /**
   * Before Express: a page the cache has is sent and `hit` called. Otherwise `miss` (render it),
   * at once or, when the same page is being rendered already, once that render is done and
   * stored nothing for this request (ADR 108); meanwhile a copy a write made stale a moment ago answers.
   */
  function serve(req: IncomingMessage, res: ServerResponse, then: { hit: () => void; miss: () => void }): void {
    const found = target(req.method, req.url ?? "/", req.headers);
    if (!found) {
      then.miss();
      return;
    }
    const entry = cache.get(found.key);
    if (entry) {
      sendHit(req, res, found, entry);
      then.hit();
      return;
    }
    if (flights.flying(found.key)) {
      const stale = cache.stale(found.key);
      if (stale) {
        followers.labels("stale").inc();
        sendHit(req, res, found, stale);
        then.hit();
        return;
      }
      const following = flights.follow(found.key, () => {
        if (res.destroyed) return;
        const stored = cache.get(found.key);
        followers.labels(stored ? "joined" : "rendered").inc();
        if (!stored) return then.miss();
        sendHit(req, res, found, stored);
        then.hit();
      });
      if (following) return;
    } else if (req.method === "GET") {
      const land = flights.lead(found.key);
      // Its followers look again as soon as the page is stored (or not), not when this visitor
      // has read it: a leader who never reads holds nobody up. Or when it hung up or was refused.
      landings.set(res, land);
      res.once("close", land);
    }
    then.miss();
  }

  async function toEntry(found: Target, response: Response, hints: RenderHints, client: Accepted): Promise<CachedPage> {
    const body = Buffer.from(await response.arrayBuffer());
    const kept: [string, string][] = [];
    for (const [name, value] of response.headers) if (!NOT_KEPT.has(name)) kept.push([name, value]);
    const isHtml = response.headers.get("content-type")?.startsWith("text/html") ?? false;
    kept.push([cspHeaderName(), contentSecurityPolicy(isHtml ? inlineHashes(body) : { scripts: [], styles: [] })]);
    // Fast for now: most misses are never asked for again; the first hit compresses it smaller.
    // Faster still while other renders wait for their turn (ADR 118). A page's stylesheet was
    // compressed once: gzip around it, where the client takes gzip (ADR 128).
    const made = encodeMiss(body, client, gate.waiting > 0 ? "busy" : "fast", hints.stylesheet);
    const expiresAt = Math.min(Date.now() + MAX_AGE_MS, hints.expiresAt ?? Number.POSITIVE_INFINITY);
    return {
      key: found.key,
      kind: found.kind,
      saverVaries: !found.sameForEveryone,
      listingId: hints.listingId,
      headers: kept,
      etag: etagOf(body),
      // HTTP dates have whole seconds: a page rendered at 12:00:00.700 is not modified since 12:00:00.
      modifiedAt: Math.floor(Date.now() / 1000) * 1000,
      variants: { [made.encoding]: made.body },
      draft: made.encoding !== "identity",
      ...(made.encoding === client.preferred ? {} : { draftFor: client.preferred }),
      expiresAt,
      bytes: made.body.length + found.key.length,
    };
  }

  function cacheable(req: ExpressRequest, response: Response): boolean {
    if (req.method !== "GET" || response.status !== 200 || response.headers.has("set-cookie")) return false;
    const control = response.headers.get("cache-control") ?? "";
    return !/no-store|private/.test(control) && response.headers.has("content-type");
  }

  /**
   * Before Express, for every request a page-cache hit did not answer: waits for its turn to
   * render (`next`), or is answered 503 at once when it would wait too long (ADR 093).
   * A photo is read from storage, not rendered: it never waits behind pages.
   */
  function admit(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    if (isPhotoPath(req.url ?? "/")) {
      next();
      return;
    }
    const clientIp = clientIpFrom({
      socketAddress: req.socket.remoteAddress,
      forwardedFor: req.headers["x-forwarded-for"],
      trustProxy,
    });
    const arrived = performance.now();
    void gate.enter(networkOrigin(clientIp), laneOf(req.headers.cookie)).then((admission) => {
      if (!admission.ok) {
        noteRefusal(admission.reason);
        sendBusy(req, res, admission.retryAfterSeconds);
        return;
      }
      // Freed once the answer is written, or at once by a visitor who hung up (even while waiting).
      if (res.closed || req.destroyed) {
        admission.release();
        return;
      }
      res.once("close", admission.release);
      noteRenderWait(res, Math.round(performance.now() - arrived));
      next();
    });
  }

  /** Signed-in people go first: their pages are theirs alone, and an owner's write must not wait behind a crowd. */
  function laneOf(cookie: string | undefined): Lane {
    return hasSessionCookie(cookie) && hasSignedSessionCookie(cookie, services.secrets.sessionSecret)
      ? "priority"
      : "public";
  }

  /** Counts a refusal; the log gets one line every ten seconds at most, not one per request. */
  function noteRefusal(reason: "busy" | "network" | "late") {
    rendersRefused.labels(reason).inc();
    refusals[reason] += 1;
    const now = Date.now();
    if (now - refusalsLogged < REFUSALS_LOG_EVERY_MS) return;
    services.logger.warn({ refused: { ...refusals }, waiting: gate.waiting }, "too busy: renders refused with 503");
    refusals.busy = refusals.network = refusals.late = 0;
    refusalsLogged = now;
  }

  /** The last Express handler: renders with React Router, keeps what the cache may keep, and answers. */
  async function render(req: ExpressRequest, res: ExpressResponse, next: NextFunction): Promise<void> {
    try {
      const found = target(req.method, req.originalUrl, req.headers);
      const request = toFetchRequest(req, res, found?.url ?? req.originalUrl);
      // Every page is rendered to the end into one buffer before a byte is sent: the cache reads a page
      // whole (ADR 121), and one it may not keep (someone signed in, a form) costs a third as much
      // written once as streamed chunk by chunk through compression (ADR 138).
      const hints: RenderHints = { whole: true };
      const epoch = cache.epoch;
      const seen = invalidationsSeen();
      // The render speaks the URL's language: server/app.ts runs every Express request inside it (ADR 033).
      const response = await withRenderHints(hints, () => handleRequest(request, getLoadContext(req, res)));
      const viewCookies = response.status === 200 ? countView(req, req.path, hints.listingId) : [];
      if (found && cacheable(req, response)) {
        const entry = await toEntry(found, response, hints, acceptedEncodings(req.headers["accept-encoding"]));
        // Shown fresh to the other workers only when no write came in during the render (ADR 061, 108).
        if (cache.set(entry, epoch) && entry.staleAt === undefined) share(entry, seen);
        landings.get(res)?.();
        sendCachedPage(req, res, cache, entry, { headers: {}, cookies: viewCookies, status: "MISS" });
        return;
      }
      landings.get(res)?.();
      for (const cookie of viewCookies) res.append("Set-Cookie", cookie);
      // A page rendered for someone signed in is theirs alone.
      if (hasSessionCookie(req.headers.cookie) && !response.headers.has("cache-control"))
        res.setHeader("Cache-Control", "private, no-store");
      await sendFetchResponse(res, response);
    } catch (error) {
      next(error);
    }
  }

  return { serve, admit, render, renderQueue: gate };
}
