import type { IncomingMessage, ServerResponse } from "node:http";
import compression from "compression";
import express from "express";
import { createRequestHandler, RouterContextProvider } from "react-router";
import { hasSessionCookie } from "../app/auth/session-cookie";
import { hasSignedSessionCookie } from "../app/auth/session-signature.server";
import { watchPageInvalidations } from "../app/cache/invalidation.server";
import { createPageCache, markViewsDue } from "../app/cache/page-cache.server";
import { createCountMemo } from "../app/db/count-memo.server";
import { basenameOf, LOCALES, type Locale, localeOfPath } from "../app/i18n/locales";
import { inLocale } from "../app/i18n/request-locale.server";
import { collectAfterCrowds } from "../app/lib/after-crowd.server";
import { markRequest, markRequestEnd, markRequestStart } from "../app/lib/idle.server";
import { collectionsAfterCrowds, sharedPages } from "../app/lib/metrics.server";
import { clientIpFrom, expressTrustProxy } from "../app/limits/client-ip.server";
import { countOutboxBacklog } from "../app/models/outbox.server";
import { startViewCounter } from "../app/models/view-tracking.server";
import { dataSaverOn } from "../app/security/data-saver.server";
import { securityHeaders } from "../app/security/headers.server";
import { errorHandler, securityMiddleware } from "../app/security/middleware.server";
import { keepCookieResponsesPrivate } from "../app/security/private-cookies.server";
import { logRequests } from "../app/security/request-log.server";
import { getServices, requestContext } from "../app/services.server";
import { createHealthChecks } from "./health";
import { createMetrics } from "./metrics";
import { acceptsSharedPage, pageSharing } from "./page-sharing";
import { createPages } from "./pages";
import { loadStaticFiles } from "./static-files";

// Start-up (configuration, database, migrations, demo data) happens once, before
// the first request is accepted.
const services = await getServices();
const { env, logger } = services;
const development = env.NODE_ENV === "development";

export const app = express();
app.disable("x-powered-by");
// Express reads forwarded headers (req.protocol, req.hostname) only from the proxies TRUST_PROXY names (ADR 064).
if (env.TRUST_PROXY) app.set("trust proxy", expressTrustProxy(env.TRUST_PROXY));
app.use(compression());

/** Headers, foreign-Origin refusal and body caps for everything Express answers. */
const security = securityMiddleware({
  siteUrl: env.siteUrl,
  siteName: env.SITE_NAME,
  development,
  trustProxy: env.TRUST_PROXY,
  logger,
});

/** The last handler: a short page with the request id, never a stack trace. */
const handleErrors = errorHandler({ siteName: env.SITE_NAME, logger });

app.use(logRequests(logger));
// An answer that sets a cookie is one browser's: never kept by a shared cache (ADR 068).
app.use(keepCookieResponsesPrivate());
// Everything after this speaks the language of the URL, refusals included (/si, /ta or English: ADR 033).
app.use((req, _res, next) => inLocale(localeOfPath(req.path), next));
app.use(security);

// The workers of a machine share the pages they render (ADR 061): one render per machine, not per worker.
const sharing = pageSharing();
// The page cache is off in development (pages change with every edit) and with PAGE_CACHE_MB=0.
const cache = createPageCache({
  maxBytes: development ? 0 : env.PAGE_CACHE_MB * 1024 * 1024,
  // A page compressed smaller here need not be compressed again by the other workers (ADR 061).
  onKept: (entry) => sharing.share(entry, invalidations.seen()),
});
const views = startViewCounter({ db: services.db, log: logger });
// Counts pages show, forgotten with the pages (ADR 096).
const counts = createCountMemo();
const invalidations = await watchPageInvalidations({
  db: services.db,
  log: logger,
  onChange: (change) => {
    cache.invalidate(change);
    counts.forget(change);
  },
});

if (cache.enabled && sharing.enabled)
  sharing.receive((entry, seen) => {
    const local = { seen: invalidations.seen(), changed: invalidations.changed() };
    const verdict = acceptsSharedPage(local, { seen });
    // Views this worker has read since the render began may be on the page's listing: its count is due.
    if (verdict === "views-due") markViewsDue(entry);
    const kept = verdict !== "refused" && cache.set(entry, cache.epoch);
    sharedPages.labels(kept ? "kept" : "refused").inc();
  });

/** What every response carries; a cached page adds its own CSP (inline hashes) on top. */
const staticHeaders = securityHeaders({ inline: { scripts: [], styles: [] }, https: env.siteUrl.startsWith("https:") });

// One React Router per language, the same routes under another basename: /si and /ta (ADR 033).
// Links, forms and redirects inside a page stay in its language without naming it.
// In production the build is given as an object: React Router derives its routes and static
// handler once. Given a function (development, so edits are picked up), it derives them again for
// every request, which cost about 6% of a cold render's CPU.
const serverBuild = development ? null : await import("virtual:react-router/server-build");
const handlers = Object.fromEntries(
  LOCALES.map((locale) => [
    locale,
    createRequestHandler(
      serverBuild
        ? { ...serverBuild, basename: basenameOf(locale) }
        : async () => ({ ...(await import("virtual:react-router/server-build")), basename: basenameOf(locale) }),
      development ? "development" : "production",
    ),
  ]),
) as Record<Locale, ReturnType<typeof createRequestHandler>>;

const pages = createPages({
  services,
  cache,
  views,
  handleRequest: (request, context) => handlers[localeOfPath(new URL(request.url).pathname)](request, context),
  getLoadContext(req, res) {
    const requestId = String(res.locals.requestId);
    const clientIp = clientIpFrom({
      socketAddress: req.socket.remoteAddress,
      forwardedFor: req.headers["x-forwarded-for"],
      trustProxy: env.TRUST_PROXY,
    });
    const context = new RouterContextProvider();
    const nonce = String(res.locals.cspNonce);
    const setCookie = (cookie: string) => res.append("Set-Cookie", cookie);
    const { cookie } = req.headers;
    // Signed in: pages rendered for one person count afresh, as the page cache never answers them.
    const signedIn = hasSessionCookie(cookie) && hasSignedSessionCookie(cookie, services.secrets.sessionSecret);
    context.set(requestContext, {
      ...services,
      requestId,
      clientIp,
      locale: localeOfPath(req.path),
      dataSaver: dataSaverOn(req.headers.cookie, req.get("save-data")),
      counts: signedIn ? undefined : counts,
      nonce,
      setCookie,
      log: logger.child({ requestId }),
    });
    return context;
  },
  headers: staticHeaders,
  invalidationsSeen: invalidations.seen,
  share: sharing.share,
});

app.use(pages.render);
app.use(handleErrors);

/**
 * The production server's request handler (server.ts): the browser build's
 * files and cached pages straight from memory, everything else through Express.
 */
export function createHandler(clientDir: string): (req: IncomingMessage, res: ServerResponse) => void {
  const files = loadStaticFiles(clientDir, staticHeaders);
  const health = createHealthChecks({
    db: services.db,
    redis: services.redis,
    storage: services.storage,
    headers: staticHeaders,
  });
  const metrics = createMetrics({
    token: env.METRICS_TOKEN,
    siteIsLocal: env.siteIsLocal,
    outboxBacklog: () => countOutboxBacklog(services.db),
    pageCacheSize: () => ({
      bytes: cache.bytes,
      entries: cache.size,
      maxBytes: cache.maxBytes,
      dropped: cache.dropped,
    }),
    log: logger,
  });
  // Once quiet after a crowd, the worker gives back the heap the crowd grew (ADR 140).
  collectAfterCrowds({
    refused: () => pages.renderQueue.refused,
    onCollected: ({ ms, heapBefore, heapAfter }) => {
      collectionsAfterCrowds.inc();
      logger.info(
        {
          ms: Math.round(ms),
          heapBeforeMb: Math.round(heapBefore / 2 ** 20),
          heapAfterMb: Math.round(heapAfter / 2 ** 20),
        },
        "heap given back after a crowd",
      );
    },
  });
  logger.info({ files: files.count, pageCacheMb: cache.enabled ? env.PAGE_CACHE_MB : 0 }, "static files loaded");
  return (req, res) => {
    // How many visitors this worker answers tells whether it is busy (ADR 113).
    markRequest();
    if (files.serve(req, res) || health(req, res) || metrics.serve(req, res)) return;
    pages.serve(req, res, {
      hit: () => metrics.hit(req, res),
      miss() {
        metrics.time(req, res);
        // Background work waits while a request is waiting or under way here (ADR 095).
        markRequestStart();
        res.once("close", markRequestEnd);
        // Waits for its turn to render, or is told at once to come back (ADR 093).
        pages.admit(req, res, () => app(req, res));
      },
    });
  };
}

/** A clean shutdown (SIGTERM): no new invalidation reads, every counted view written, jobs finished and their leases given up. */
export async function shutdown(): Promise<void> {
  invalidations.stop();
  await Promise.all([views.stop(), services.stopBackground?.()]);
  await services.db.destroy();
}
