import cluster from "node:cluster";
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { AggregatorRegistry } from "prom-client";
import { compressionsWaiting } from "../app/cache/page-cache.server";
import {
  httpDuration,
  httpRequests,
  measureCompressionsWith,
  measureOutboxWith,
  measurePageCacheWith,
  metricsRegistry,
  type PageCacheSize,
  pageCache,
  routeLabel,
  type Tally,
  tally,
} from "../app/lib/metrics.server";
import { askPrimary } from "../app/lib/primary-ipc";
import { isLoopbackRequest } from "../app/security/loopback.server";

/**
 * /metrics for Prometheus (ADR 042), and the counting of requests.
 * Not public: with METRICS_TOKEN set it needs `Authorization: Bearer <token>`;
 * without, only a program on this machine that came through no proxy
 * (isLoopbackRequest: no forwarding header of any kind) gets it, and only
 * while SITE_URL is a local address. On a public site a proxy on the same
 * machine connects from 127.0.0.1 for everyone, and one that adds no
 * forwarding header cannot be told from a local program: there the token is
 * required. Anyone else gets the site's 404 as if it did not exist. In a
 * cluster the answer is the sum of every worker, collected by the primary
 * (server/cluster.ts).
 */

type MetricsAccess = { token: string | undefined; siteIsLocal: boolean };

function allowed(req: IncomingMessage, { token, siteIsLocal }: MetricsAccess): boolean {
  if (token) {
    const given = Buffer.from(req.headers.authorization ?? "");
    const wanted = Buffer.from(`Bearer ${token}`);
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  }
  return siteIsLocal && isLoopbackRequest(req.headers, req.socket.remoteAddress);
}

/** Never kept by a cache or a browser, never read as anything but text. */
const PRIVATE_TEXT = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } as const;

export function createMetrics(
  options: MetricsAccess & {
    outboxBacklog: () => Promise<number>;
    pageCacheSize?: () => PageCacheSize;
    log?: Pick<Logger, "warn">;
  },
) {
  if (!options.token && !options.siteIsLocal)
    options.log?.warn(
      "METRICS_TOKEN is not set on a public site: /metrics answers 404 to everyone. Set METRICS_TOKEN (16 characters or more) and send it as a Bearer token to read it.",
    );
  measureOutboxWith(options.outboxBacklog);
  measureCompressionsWith(compressionsWaiting);
  if (options.pageCacheSize) measurePageCacheWith(options.pageCacheSize);
  // A worker answers the primary's requests for its metrics once an AggregatorRegistry exists here.
  if (cluster.isWorker) new AggregatorRegistry();
  // The primary adds up every worker's registry (server/cluster.ts); prom-client waits up to 5 s for them.
  const ask = cluster.isWorker ? askPrimary() : null;
  const collect = () => (ask ? ask<string>("metrics", undefined, 6_000) : metricsRegistry.metrics());

  /** Counts per (route, status class), made once: a hit costs a Map lookup and an addition. */
  const counts = new Map<string, Tally>();
  const hits = tally(pageCache, "hit");
  function countRequest(url: string, statusCode: number) {
    const route = routeLabel(url);
    const status = `${Math.floor(statusCode / 100)}xx`;
    const key = `${route} ${status}`;
    let count = counts.get(key);
    if (!count) {
      count = tally(httpRequests, route, status);
      counts.set(key, count);
    }
    count.n += 1;
  }

  return {
    /** Answers GET /metrics; false for every other request (and for a client not allowed to see it). */
    serve(req: IncomingMessage, res: ServerResponse): boolean {
      if (req.url !== "/metrics" || req.method !== "GET" || !allowed(req, options)) return false;
      collect().then(
        (text) => {
          res.writeHead(200, { "Content-Type": metricsRegistry.contentType, ...PRIVATE_TEXT });
          res.end(text);
        },
        (error: unknown) => {
          res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", ...PRIVATE_TEXT });
          res.end(`metrics unavailable: ${error instanceof Error ? error.message : String(error)}\n`);
        },
      );
      return true;
    },
    /** A page-cache hit, already answered. */
    hit(req: IncomingMessage, res: ServerResponse) {
      hits.n += 1;
      countRequest(req.url ?? "/", res.statusCode);
    },
    /** A request for Express (a miss, an action, a signed-in page): counted and timed when answered. */
    time(req: IncomingMessage, res: ServerResponse) {
      const started = performance.now();
      const url = req.url ?? "/";
      res.once("finish", () => {
        countRequest(url, res.statusCode);
        httpDuration.labels(routeLabel(url)).observe((performance.now() - started) / 1000);
        if (res.getHeader("x-page-cache") === "MISS") pageCache.labels("miss").inc();
      });
    },
  };
}
