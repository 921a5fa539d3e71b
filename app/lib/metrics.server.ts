import { Counter, collectDefaultMetrics, Gauge, Histogram, type Metric, register } from "prom-client";

/**
 * Prometheus metrics (ADR 042), in prom-client's default registry:
 * every worker counts its own, and /metrics (server/metrics.ts) answers the sum
 * of all workers, collected by the cluster's primary. Labels stay few: a route
 * is its first path segment (`routeLabel`), never a whole URL.
 */

/** A metric made once per process: a module evaluated again (the development server reloads) finds it registered. */
function once<M extends Metric>(name: string, make: () => M): M {
  return (register.getSingleMetric(name) as M | undefined) ?? make();
}

if (!register.getSingleMetric("bodima_process_cpu_user_seconds_total"))
  collectDefaultMetrics({ prefix: "bodima_process_" });

/** A count kept as a plain number between scrapes (`tally`). */
export type Tally = { n: number };
const tallies = new Map<Counter<string>, { labels: string[]; tally: Tally }[]>();

/**
 * A count for one set of labels that the hot path adds to as a plain number
 * (`tally.n += 1`); it reaches the counter when /metrics collects it. A
 * page-cache hit then costs an addition, not prom-client's hashing of labels
 * at every increment. Only for counters made with `collect: addTallies`.
 */
export function tally<T extends string>(counter: Counter<T>, ...labels: string[]): Tally {
  const made: Tally = { n: 0 };
  const list = tallies.get(counter as Counter<string>) ?? [];
  list.push({ labels, tally: made });
  tallies.set(counter as Counter<string>, list);
  return made;
}

function addTallies(this: Counter<string>): void {
  for (const { labels, tally: counted } of tallies.get(this) ?? []) {
    if (counted.n === 0) continue;
    this.labels(...labels).inc(counted.n);
    counted.n = 0;
  }
}

export const httpRequests = once(
  "bodima_http_requests_total",
  () =>
    new Counter({
      name: "bodima_http_requests_total",
      help: "Requests answered, by route (first path segment) and status class",
      labelNames: ["route", "status"] as const,
      collect: addTallies,
    }),
);

export const httpDuration = once(
  "bodima_http_request_duration_seconds",
  () =>
    new Histogram({
      name: "bodima_http_request_duration_seconds",
      help: "Time to answer a request that was not a static file or a page-cache hit, by route",
      labelNames: ["route"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    }),
);

export const pageCache = once(
  "bodima_page_cache_total",
  () =>
    new Counter({
      name: "bodima_page_cache_total",
      help: "Anonymous public page requests answered from the page cache (hit) or rendered and stored (miss)",
      labelNames: ["result"] as const,
      collect: addTallies,
    }),
);

export const sharedPages = once(
  "bodima_page_cache_shared_total",
  () =>
    new Counter({
      name: "bodima_page_cache_shared_total",
      help: "Pages another worker of this machine rendered (ADR 061): kept, or refused as older than an invalidation read here",
      labelNames: ["outcome"] as const,
    }),
);

export const pageFollowers = once(
  "bodima_page_cache_followers_total",
  () =>
    new Counter({
      name: "bodima_page_cache_followers_total",
      help: "Requests for a page another request was rendering (ADR 108): served its stale copy, joined its answer, or rendered after all",
      labelNames: ["outcome"] as const,
    }),
);

export const jobRuns = once(
  "bodima_job_runs_total",
  () =>
    new Counter({
      name: "bodima_job_runs_total",
      help: "Background job runs in this process, by job and outcome",
      labelNames: ["job", "outcome"] as const,
    }),
);

export const rateLimitRefusals = once(
  "bodima_rate_limit_refusals_total",
  () =>
    new Counter({
      name: "bodima_rate_limit_refusals_total",
      help: "Attempts refused by a rate limit, by limit and reason (limit reached, or the store unavailable)",
      labelNames: ["limit", "reason"] as const,
    }),
);

/** Set by the server with a function that counts the outbox; read when /metrics is asked for. */
let outboxBacklog: (() => Promise<number>) | null = null;
export function measureOutboxWith(count: () => Promise<number>): void {
  outboxBacklog = count;
}

once(
  "bodima_outbox_backlog",
  () =>
    new Gauge({
      name: "bodima_outbox_backlog",
      help: "Emails waiting in the outbox (pending or being sent)",
      // Every worker reads the same table: the cluster's sum would count it once per worker.
      aggregator: "max",
      async collect() {
        if (outboxBacklog) this.set(await outboxBacklog().catch(() => -1));
      },
    }),
);

/** Set by the server with a function that says how many cached pages wait to be compressed smaller (ADR 045). */
let compressionsWaiting: (() => number) | null = null;
export function measureCompressionsWith(count: () => number): void {
  compressionsWaiting = count;
}

once(
  "bodima_page_cache_compressions_waiting",
  () =>
    new Gauge({
      name: "bodima_page_cache_compressions_waiting",
      help: "Cached pages answered once at a miss's fast compression that wait to be compressed smaller",
      collect() {
        if (compressionsWaiting) this.set(compressionsWaiting());
      },
    }),
);

/**
 * What a worker's page cache holds and may hold (ADR 045), and the pages it has dropped so far by
 * why; set by the server, read when /metrics is asked for.
 */
export type PageCacheSize = {
  bytes: number;
  entries: number;
  maxBytes: number;
  dropped?: Record<"evicted" | "expired" | "invalidated" | "stale", number>;
};
let pageCacheSize: (() => PageCacheSize) | null = null;
export function measurePageCacheWith(read: () => PageCacheSize): void {
  pageCacheSize = read;
}

// Summed over the workers: each has a cache of its own, bounded by PAGE_CACHE_MB.
for (const [name, help, field] of [
  ["bodima_page_cache_bytes", "Bytes of pages held in the page caches", "bytes"],
  ["bodima_page_cache_entries", "Pages held in the page caches", "entries"],
  ["bodima_page_cache_max_bytes", "Bytes the page caches may hold (PAGE_CACHE_MB per worker)", "maxBytes"],
] as const) {
  once(
    name,
    () =>
      new Gauge({
        name,
        help,
        collect() {
          if (pageCacheSize) this.set(pageCacheSize()[field]);
        },
      }),
  );
}

once(
  "bodima_page_cache_dropped_total",
  () =>
    new Counter({
      name: "bodima_page_cache_dropped_total",
      help: "Pages the page caches dropped: evicted to fit PAGE_CACHE_MB, expired, invalidated by a write, or stale lists past their moment",
      labelNames: ["reason"] as const,
      collect() {
        const dropped = pageCacheSize?.().dropped;
        if (!dropped) return;
        // The cache keeps the running totals: the counter shows them as they are.
        this.reset();
        for (const [reason, count] of Object.entries(dropped)) this.labels(reason).inc(count);
      },
    }),
);

const KNOWN_ROUTES = new Set([
  "",
  "browse",
  "old-browse",
  "listing",
  "search",
  "university",
  "city",
  "api",
  "getAdsForSEO",
  "getAdForSEO",
  "getAdsByUniversity",
  "updateViewCount",
  "dashboard",
  "admin",
  "login",
  "logout",
  "signup",
  "reset-password",
  "about",
  "contact",
  "privacy",
  "terms",
  "language",
  "photos",
  "sitemap.xml",
  "robots.txt",
  "assets",
]);

/** The route label of a URL path: its first segment after the language (/si, /ta), or "other". */
export function routeLabel(url: string): string {
  let path = url;
  const query = path.indexOf("?");
  if (query >= 0) path = path.slice(0, query);
  if (path.startsWith("/si/") || path.startsWith("/ta/")) path = path.slice(3);
  else if (path === "/si" || path === "/ta") path = "/";
  const end = path.indexOf("/", 1);
  let segment = path.slice(1, end < 0 ? undefined : end);
  if (segment.endsWith(".data")) segment = segment.slice(0, -".data".length);
  if (segment.startsWith("sitemap")) segment = "sitemap.xml";
  return KNOWN_ROUTES.has(segment) ? `/${segment}` : "other";
}

export { register as metricsRegistry };

/** Last-resort collections a worker ran once quiet after a crowd, to give the heap back (ADR 140). */
export const collectionsAfterCrowds = once(
  "bodima_collections_after_crowds_total",
  () =>
    new Counter({
      name: "bodima_collections_after_crowds_total",
      help: "Full garbage collections run once a worker fell quiet after a crowd, giving back the heap it grew",
    }),
);

/** Requests told to come back later (503) because the renders were too far behind (ADR 093). */
export const rendersRefused = once(
  "bodima_renders_refused_total",
  () =>
    new Counter({
      name: "bodima_renders_refused_total",
      help: "Requests answered 503 with Retry-After instead of waiting for a render: busy, network over its share, or late",
      labelNames: ["reason"] as const,
    }),
);

/** Set by the server with a function that says how many requests wait for a render (ADR 093). */
let rendersWaiting: (() => number) | null = null;
export function measureRenderQueueWith(count: () => number): void {
  rendersWaiting = count;
}

once(
  "bodima_renders_waiting",
  () =>
    new Gauge({
      name: "bodima_renders_waiting",
      help: "Requests waiting for a render slot",
      collect() {
        if (rendersWaiting) this.set(rendersWaiting());
      },
    }),
);
