import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request as ExpressRequest, Response as ExpressResponse, NextFunction } from "express";
import type { RouterContextProvider } from "react-router";
import { hasSessionCookie } from "../app/auth/session-cookie";
import { hasSignedSessionCookie } from "../app/auth/session-signature.server";
import {
  type CachedPage,
  encode,
  etagOf,
  MAX_AGE_MS,
  type PageCache,
  preferredEncoding,
  sendCachedPage,
} from "../app/cache/page-cache.server";
import {
  cacheablePageKind,
  isListingPage,
  isSameForEveryone,
  normalisePageUrl,
  type PageKind,
} from "../app/cache/page-key";
import { type RenderHints, withRenderHints } from "../app/cache/render-hints.server";
import { clientIpFrom } from "../app/limits/client-ip.server";
import { queueListingView, type ViewCounter, type ViewRequest } from "../app/models/view-tracking.server";
import { dataSaverOn } from "../app/security/data-saver.server";
import { contentSecurityPolicy, cspHeaderName } from "../app/security/headers.server";
import { inlineHashes } from "../app/security/inline-hashes.server";
import type { Services } from "../app/services.server";
import { createTurns } from "./turns";
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
}: PagesOptions) {
  const { env } = services;
  const trustProxy = env.TRUST_PROXY;
  const secure = env.siteUrl.startsWith("https:");
  // One render per turn of the event loop, in arrival order (ADR 031).
  const turns = createTurns();

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

  /** Before Express: a page the cache has, or false. */
  function serveHit(req: IncomingMessage, res: ServerResponse): boolean {
    const found = target(req.method, req.url ?? "/", req.headers);
    if (!found) return false;
    const entry = cache.get(found.key);
    if (!entry) return false;
    sendCachedPage(req, res, cache, entry, {
      headers,
      cookies: countView(req, found.pathname, entry.listingId),
      status: "HIT",
    });
    return true;
  }

  async function toEntry(
    found: Target,
    response: Response,
    hints: RenderHints,
    encoding: ReturnType<typeof preferredEncoding>,
  ): Promise<CachedPage> {
    const body = Buffer.from(await response.arrayBuffer());
    const kept: [string, string][] = [];
    for (const [name, value] of response.headers) if (!NOT_KEPT.has(name)) kept.push([name, value]);
    const isHtml = response.headers.get("content-type")?.startsWith("text/html") ?? false;
    kept.push([
      cspHeaderName(),
      contentSecurityPolicy(isHtml ? inlineHashes(body.toString("latin1"), "latin1") : { scripts: [], styles: [] }),
    ]);
    // Fast for now: most misses are never asked for again; the first hit compresses it smaller.
    const variant = encode(body, encoding, "fast");
    const expiresAt = Math.min(Date.now() + MAX_AGE_MS, hints.expiresAt ?? Number.POSITIVE_INFINITY);
    return {
      key: found.key,
      kind: found.kind,
      saverVaries: !found.sameForEveryone,
      listingId: hints.listingId,
      headers: kept,
      etag: etagOf(body),
      variants: { [encoding]: variant },
      draft: encoding !== "identity",
      expiresAt,
      bytes: variant.length + found.key.length,
    };
  }

  function cacheable(req: ExpressRequest, response: Response): boolean {
    if (req.method !== "GET" || response.status !== 200 || response.headers.has("set-cookie")) return false;
    const control = response.headers.get("cache-control") ?? "";
    return !/no-store|private/.test(control) && response.headers.has("content-type");
  }

  /** The last Express handler: renders with React Router. */
  async function render(req: ExpressRequest, res: ExpressResponse, next: NextFunction): Promise<void> {
    try {
      await turns.next();
      const found = target(req.method, req.originalUrl, req.headers);
      const request = toFetchRequest(req, res, found?.url ?? req.originalUrl);
      const hints: RenderHints = {};
      const epoch = cache.epoch;
      const seen = invalidationsSeen();
      // The render speaks the URL's language: server/app.ts runs every Express request inside it (ADR 033).
      const response = await withRenderHints(hints, () => handleRequest(request, getLoadContext(req, res)));
      const viewCookies = response.status === 200 ? countView(req, req.path, hints.listingId) : [];
      if (found && cacheable(req, response)) {
        const entry = await toEntry(found, response, hints, preferredEncoding(req.headers["accept-encoding"]));
        // Kept only when no write came in during the render; then the other workers need not render it.
        if (cache.set(entry, epoch)) share(entry, seen);
        sendCachedPage(req, res, cache, entry, { headers: {}, cookies: viewCookies, status: "MISS" });
        return;
      }
      for (const cookie of viewCookies) res.append("Set-Cookie", cookie);
      // A page rendered for someone signed in is theirs alone.
      if (hasSessionCookie(req.headers.cookie) && !response.headers.has("cache-control"))
        res.setHeader("Cache-Control", "private, no-store");
      await sendFetchResponse(res, response);
    } catch (error) {
      next(error);
    }
  }

  return { serveHit, render };
}
