/**
 * The soak's judgement (ADR 094), kept apart from the machinery so it can be
 * tested: one record per minute goes in, the checks that passed or failed come
 * out. Nothing here reads a clock, a file or the network.
 */

/** What the soak saw in one minute of traffic. */
export type Minute = {
  /** 1-based minute of the measured run. */
  minute: number;
  /** Resident memory of every server process (primary and workers) at the minute's end, MB. */
  rssMb: number;
  /** Of which the primary's (it keeps the rate limits, ADR 040), MB: where memory grows tells what holds it. */
  primaryRssMb?: number;
  /** The workers' JavaScript heap in use (V8), summed, MB; null when /metrics had none. */
  heapUsedMb?: number | null;
  /** Event-loop delay at p99 (mean of the workers) and the largest any worker saw, ms; null when /metrics had none. */
  loopP99Ms: number | null;
  loopMaxMs: number | null;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** p99 of the pages alone (hot, cold, listing views): what visitors wait for; the one judged for drift. */
  pagesP99Ms?: number;
  /** Of those, the hot pages' p99 (nearly all page-cache hits) and the cold pages' (every one a render): which of them drifts. */
  hotP99Ms?: number;
  coldP99Ms?: number;
  /** Answers that were neither expected nor 2xx/3xx, and requests with no answer at all. */
  errors: number;
  /** 429s: counted apart, and the mix is shaped so legitimate traffic does not meet them. */
  limited: number;
  /** Requests the client could not send on time because too many were still waiting for an answer. */
  late: number;
  pageCacheBytes: number | null;
  pageCacheMaxBytes: number | null;
  /** The fullest rate-limit store (windows held by one limit) and what one may hold. */
  limitKeys: number | null;
  limitMaxKeys: number | null;
  /** The limit whose store that is. */
  fullestLimit?: string | null;
  /** Hits a full limit counted in its fixed-size sketch so far (ADR 102), the most of any limit. */
  limitOverflows?: number | null;
  /** CPU the server's processes used in the minute, per request answered, ms (scripts/soak/host.ts). */
  serverCpuMsPerRequest?: number | null;
  /** CPU the database server's processes used, per request, ms; null on SQLite (in the server) or a server not the soak's. */
  databaseCpuMsPerRequest?: number | null;
  /** CPU ms the host probe's fixed work took: flat on a steady host, higher when the machine is slower. */
  probeCpuMs?: number | null;
  /** Share of the machine's time the hypervisor stole in the minute (0 to 1). */
  steal?: number | null;
};

/** Writes the server acknowledged, and those of them the database does not hold. */
export type WriteCheck = { kind: string; acknowledged: number; missing: string[] };

export type Check = { name: string; pass: boolean; detail: string };

/** Memory and p99 may not rise by more than this share over the run (ADR 094). */
export const DRIFT_LIMIT = 0.1;
/** The first minutes fill caches and connection pools: the trend starts after them. */
export const SETTLE_MINUTES = 5;
/** p99 of a minute is noisy on a shared machine: below this many ms a rise is not judged. */
export const P99_FLOOR_MS = 50;

/** Least-squares slope of ys over xs (units of y per unit of x); 0 with fewer than two points. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return 0;
  const mx = xs.slice(0, n).reduce((a, b) => a + b, 0) / n;
  const my = ys.slice(0, n).reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** A rise as a share of where the line starts: its value at the first x, and its rise to the last. */
function riseOfLine(xs: readonly number[], b: number, startValue: number): number {
  const rise = b * (xs[xs.length - 1] - xs[0]);
  return startValue > 0 ? rise / startValue : 0;
}

/**
 * The least-squares line's rise over the series, as a share of where it starts. Shown beside the
 * judged trend: one minute ten times the others moves this line a long way (ADR 125).
 */
export function leastSquaresRise(points: readonly { x: number; y: number }[]): number {
  if (points.length < 2) return 0;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const b = slope(xs, ys);
  const mx = xs.reduce((a, c) => a + c, 0) / xs.length;
  const my = ys.reduce((a, c) => a + c, 0) / ys.length;
  return riseOfLine(xs, b, my + b * (xs[0] - mx));
}

/**
 * How much a series rises over the judged minutes, as a share of where it
 * starts: the Theil–Sen line's rise from the first judged minute to the last,
 * divided by the line's value at the first. A flat or falling series gives 0
 * or less. A line through every point, not first against last, and its slope
 * the median of the slopes between every two minutes (its intercept the median
 * of what is left), so one noisy minute neither hides nor invents a trend: a
 * line fitted by least squares followed a single minute of a host's stall ten
 * times the others' p99 (ADR 125), while a steady climb moves every slope.
 */
export function relativeRise(points: readonly { x: number; y: number }[]): number {
  if (points.length < 2) return 0;
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++)
    for (let j = i + 1; j < points.length; j++)
      if (points[j].x !== points[i].x) slopes.push((points[j].y - points[i].y) / (points[j].x - points[i].x));
  if (slopes.length === 0) return 0;
  const b = median(slopes);
  const a = median(points.map((p) => p.y - b * p.x));
  const xs = points.map((p) => p.x);
  return riseOfLine(xs, b, a + b * xs[0]);
}

/** The minutes a trend is judged on: after the settling ones, or the second half of a short run. */
export function judgedMinutes(minutes: readonly Minute[]): Minute[] {
  if (minutes.length > SETTLE_MINUTES + 1) return minutes.slice(SETTLE_MINUTES);
  return minutes.slice(Math.floor(minutes.length / 2));
}

const MB = 1024 * 1024;
const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
const sign = (share: number) => `${share >= 0 ? "+" : ""}${pct(share)}`;

/**
 * The trends that tell a server doing more work for each request from a host getting slower
 * (scripts/soak/host.ts), for the p99 check's detail; empty when the run did not measure them.
 */
function whereTimeWent(judged: readonly Minute[]): string {
  const parts: string[] = [];
  const of = (label: string, pick: (m: Minute) => number | null | undefined) => {
    const points = judged.flatMap((m) => {
      const y = pick(m);
      return y == null ? [] : [{ x: m.minute, y }];
    });
    if (points.length >= 2) parts.push(`${label} ${sign(relativeRise(points))}`);
  };
  of("hot pages' p99", (m) => m.hotP99Ms);
  of("cold pages' p99", (m) => m.coldP99Ms);
  of("server CPU a request", (m) => m.serverCpuMsPerRequest);
  of("database CPU a request", (m) => m.databaseCpuMsPerRequest);
  of("host probe's CPU", (m) => m.probeCpuMs);
  return parts.length ? `; trends: ${parts.join(", ")}` : "";
}

export function judge(minutes: readonly Minute[], writes: readonly WriteCheck[], jobFailures: string[]): Check[] {
  const checks: Check[] = [];
  const sum = (pick: (m: Minute) => number) => minutes.reduce((total, m) => total + pick(m), 0);
  const errors = sum((m) => m.errors);
  checks.push({ name: "no errors", pass: errors === 0, detail: `${errors} of ${sum((m) => m.requests)} requests` });
  const limited = sum((m) => m.limited);
  checks.push({ name: "no rate-limit refusals", pass: limited === 0, detail: `${limited} answers were 429` });
  checks.push({
    name: "jobs ran",
    pass: jobFailures.length === 0,
    detail: jobFailures.length === 0 ? "every job run exited 0" : jobFailures.join("; "),
  });
  const lost = writes.filter((w) => w.missing.length > 0);
  checks.push({
    name: "no lost writes",
    pass: lost.length === 0,
    detail:
      writes.map((w) => `${w.kind} ${w.acknowledged - w.missing.length}/${w.acknowledged}`).join(", ") +
      (lost.length > 0
        ? `; missing: ${lost.map((w) => `${w.kind} ${w.missing.slice(0, 5).join(" ")}`).join("; ")}`
        : ""),
  });

  const judged = judgedMinutes(minutes);
  const from = judged[0]?.minute ?? 0;
  const to = judged.at(-1)?.minute ?? 0;
  // The page caches fill up to their bound (checked below) as fast as the rate lets them: at a low
  // rate that takes the whole run. The drift judged is of what the server holds besides them.
  const rss = relativeRise(judged.map((m) => ({ x: m.minute, y: m.rssMb })));
  const memory = relativeRise(judged.map((m) => ({ x: m.minute, y: m.rssMb - (m.pageCacheBytes ?? 0) / MB })));
  checks.push({
    name: "memory flat",
    pass: memory <= DRIFT_LIMIT,
    detail: `trend of RSS less the page caches ${sign(memory)} over minutes ${from}-${to} (limit +${pct(DRIFT_LIMIT)}; RSS alone ${sign(rss)})`,
  });
  // Owners' requests (a post with a photo takes about a second) are 2% of the mix: the p99 of every
  // request is their slower half, noisy by nature. The pages' p99 is judged (ADR 106); both are shown.
  const floored = (pick: (m: Minute) => number) =>
    judged.map((m) => ({ x: m.minute, y: Math.max(pick(m), P99_FLOOR_MS) }));
  const p99Points = floored((m) => m.pagesP99Ms ?? m.p99Ms);
  const p99 = relativeRise(p99Points);
  const every = relativeRise(floored((m) => m.p99Ms));
  checks.push({
    name: "p99 flat",
    pass: p99 <= DRIFT_LIMIT,
    detail: `pages' p99 trend ${sign(p99)} over minutes ${from}-${to} (limit +${pct(DRIFT_LIMIT)}, minutes under ${P99_FLOOR_MS} ms count as ${P99_FLOOR_MS}; every request's p99 ${sign(every)}; least-squares line ${sign(leastSquaresRise(p99Points))})${whereTimeWent(judged)}`,
  });
  const late = sum((m) => m.late);
  checks.push({
    name: "kept up with the rate",
    pass: late === 0,
    detail: `${late} requests could not be sent on time (too many waiting for an answer)`,
  });

  const overCache = minutes.filter(
    (m) => m.pageCacheBytes !== null && m.pageCacheMaxBytes !== null && m.pageCacheBytes > m.pageCacheMaxBytes,
  );
  const cacheSeen = minutes.some((m) => m.pageCacheBytes !== null);
  checks.push({
    name: "page caches within bounds",
    pass: cacheSeen && overCache.length === 0,
    detail: !cacheSeen
      ? "/metrics reported no page cache size"
      : `largest ${mb(Math.max(...minutes.map((m) => m.pageCacheBytes ?? 0)))} of ${mb(minutes.at(-1)?.pageCacheMaxBytes ?? 0)}`,
  });
  const limitSeen = minutes.some((m) => m.limitKeys !== null);
  const fullest = Math.max(...minutes.map((m) => m.limitKeys ?? 0));
  const bound = minutes.at(-1)?.limitMaxKeys ?? 0;
  checks.push({
    name: "rate-limit stores within bounds",
    // At the bound a limit counts new keys in a fixed-size sketch (ADR 102): still counting, still bounded.
    pass: limitSeen && fullest <= bound,
    detail: limitSeen
      ? `fullest limit held ${fullest} of ${bound} windows; ${Math.max(0, ...minutes.map((m) => m.limitOverflows ?? 0))} hits counted in a sketch at the bound`
      : "/metrics reported no rate-limit store size",
  });
  return checks;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** CPU a request of the server, and of the database when it was measured apart: "3.10 ms" or "3.10 + 1.20 ms". */
export function cpuPerRequest(m: Minute): string {
  if (m.serverCpuMsPerRequest == null) return "–";
  const database = m.databaseCpuMsPerRequest == null ? "" : ` + ${m.databaseCpuMsPerRequest.toFixed(2)}`;
  return `${m.serverCpuMsPerRequest.toFixed(2)}${database} ms`;
}

/** The per-minute line. */
export function formatMinute(m: Minute): string {
  const ms = (v: number | null) => (v === null ? "-" : v.toFixed(1));
  const cache = m.pageCacheBytes === null ? "-" : (m.pageCacheBytes / 1024 / 1024).toFixed(1);
  return [
    `min ${String(m.minute).padStart(3)}`,
    `rss ${m.rssMb.toFixed(0)} MB${m.primaryRssMb === undefined ? "" : ` (primary ${m.primaryRssMb.toFixed(0)})`}`,
    `heap ${m.heapUsedMb == null ? "-" : m.heapUsedMb.toFixed(0)} MB`,
    `loop p99 ${ms(m.loopP99Ms)} max ${ms(m.loopMaxMs)} ms`,
    `req ${m.requests}`,
    `p50 ${m.p50Ms.toFixed(1)} p99 ${m.p99Ms.toFixed(1)} ms`,
    `pages p99 ${m.pagesP99Ms === undefined ? "-" : m.pagesP99Ms.toFixed(1)} ms${m.hotP99Ms === undefined || m.coldP99Ms === undefined ? "" : ` (hot ${m.hotP99Ms.toFixed(1)}, cold ${m.coldP99Ms.toFixed(1)})`}`,
    `err ${m.errors}`,
    `429 ${m.limited}`,
    `late ${m.late}`,
    `cache ${cache} MB`,
    `limit keys ${m.limitKeys ?? "-"}${m.fullestLimit ? ` (${m.fullestLimit})` : ""}`,
    ...(m.serverCpuMsPerRequest == null ? [] : [`cpu/req ${cpuPerRequest(m)}`]),
    ...(m.probeCpuMs == null
      ? []
      : [`probe ${m.probeCpuMs.toFixed(1)} ms steal ${((m.steal ?? 0) * 100).toFixed(1)}%`]),
  ].join(" | ");
}
