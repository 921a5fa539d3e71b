export type StatusCounts = Record<string, number>;

export type PhaseResult = {
  connections: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  /** Milliseconds, over every response. */
  p50: number;
  p99: number;
  statusCodes: StatusCounts;
  /** Connection errors and timeouts. */
  errors: number;
  /** The page cache's answers (X-Page-Cache: HIT, MISS, none). */
  pageCache?: Record<string, number>;
  /** Distinct URLs the phase drew from (the mixes). */
  urls?: number;
  note?: string;
};

export type ShapeResult = {
  name: string;
  path: string;
  requests: number;
  p50: number;
  p95: number;
  statusCodes: StatusCounts;
};

export type PhaseName = "bare" | "static" | "warmUp" | "hot" | "cold";

export type BenchResults = {
  listings: number;
  database: "SQLite" | "PostgreSQL";
  short: boolean;
  /** The app's worker processes (WEB_CONCURRENCY). */
  workers: number;
  stylesheet: { path: string; encoding: string; bytes: number };
  phases: Record<PhaseName, PhaseResult>;
  shapes: ShapeResult[];
};

export type Ratios = { staticToBare: number; hotToStatic: number; coldToStatic: number };

export type BudgetCheck = { budget: string; measured: string; pass: boolean };

/** The value at percentile `p` (0-100) of ascending `sorted` values (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function ratios(phases: Record<PhaseName, PhaseResult>): Ratios {
  return {
    staticToBare: phases.static.requestsPerSecond / phases.bare.requestsPerSecond,
    hotToStatic: phases.hot.requestsPerSecond / phases.static.requestsPerSecond,
    coldToStatic: phases.cold.requestsPerSecond / phases.static.requestsPerSecond,
  };
}

function count(codes: StatusCounts, test: (status: number) => boolean): number {
  return Object.entries(codes).reduce((sum, [status, n]) => (test(Number(status)) ? sum + n : sum), 0);
}

const is2xx = (status: number) => status >= 200 && status < 300;
const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

/** Listings from which the 1M budgets apply; below it, those for 100,000 (docs/performance.md "Budgets"). */
export const LARGE_SCALE = 1_000_000;

/**
 * The budgets (docs/performance.md) for this run's size. The mixes send no URL meant to
 * 404, so every non-2xx answer counts against the hot mix.
 */
export function checkBudgets(results: BenchResults): BudgetCheck[] {
  const { phases, shapes } = results;
  const r = ratios(phases);
  const large = results.listings >= LARGE_SCALE;
  const hotShare = large ? 0.4 : 0.5;
  const coldShare = large ? 0.05 : 0.1;
  const hotNon2xx = count(phases.hot.statusCodes, (s) => !is2xx(s));
  const checks: BudgetCheck[] = [
    { budget: "(b) static ≥ 40% of (a) bare", measured: percent(r.staticToBare), pass: r.staticToBare >= 0.4 },
    {
      budget: `(c) hot ≥ ${percent(hotShare)} of (b) static`,
      measured: percent(r.hotToStatic),
      pass: r.hotToStatic >= hotShare,
    },
    { budget: "(c) hot p99 ≤ 50 ms", measured: `${phases.hot.p99} ms`, pass: phases.hot.p99 <= 50 },
    { budget: "(c) hot errors = 0", measured: String(phases.hot.errors), pass: phases.hot.errors === 0 },
    { budget: "(c) hot non-2xx = 0", measured: String(hotNon2xx), pass: hotNon2xx === 0 },
    {
      budget: `(d) cold ≥ ${percent(coldShare)} of (b) static`,
      measured: percent(r.coldToStatic),
      pass: r.coldToStatic >= coldShare,
    },
    { budget: "(d) cold p99 ≤ 250 ms", measured: `${phases.cold.p99} ms`, pass: phases.cold.p99 <= 250 },
  ];
  if (large && shapes.length > 0) {
    const slowest = shapes.reduce((a, b) => (b.p95 > a.p95 ? b : a));
    checks.push({
      budget: "(e) every search shape p95 ≤ 50 ms",
      measured: `slowest: ${slowest.name} ${slowest.p95.toFixed(1)} ms`,
      pass: slowest.p95 <= 50,
    });
  }
  return checks;
}

/**
 * What makes the figures meaningless whatever the machine: a phase that got
 * no successful answer, or any answer but 2xx (5xx are the app failing; 3xx
 * and 4xx mean a URL list holds pages that do not exist). These fail every
 * run, including the short one in `npm test`; the budgets do not.
 */
export function harnessProblems(results: BenchResults): string[] {
  const problems: string[] = [];
  const describe = (codes: StatusCounts) =>
    Object.entries(codes)
      .filter(([status]) => !is2xx(Number(status)))
      .map(([status, n]) => `${n} × ${status}`)
      .join(", ");
  for (const [name, phase] of Object.entries(results.phases)) {
    if (count(phase.statusCodes, is2xx) === 0) problems.push(`${name}: no 2xx response`);
    if (count(phase.statusCodes, (s) => !is2xx(s)) > 0) problems.push(`${name}: ${describe(phase.statusCodes)}`);
  }
  if (results.phases.warmUp.requests < (results.phases.hot.urls ?? 0)) {
    problems.push(`warmUp: ${results.phases.warmUp.requests} requests for ${results.phases.hot.urls} hot URLs`);
  }
  if (results.shapes.length === 0) problems.push("search shapes: none ran");
  for (const shape of results.shapes) {
    if (count(shape.statusCodes, (s) => !is2xx(s)) > 0)
      problems.push(`search shape ${shape.name}: ${describe(shape.statusCodes)}`);
  }
  return problems;
}
