// What the page caches did during a phase, from the server's /metrics (summed over its workers):
// the hot mix's misses are pages dropped since the warm-up, or pages a worker refused from another.

export type CacheCounts = {
  evicted: number;
  expired: number;
  invalidated: number;
  stale: number;
  /** Pages another worker rendered that this one did not keep (ADR 061). */
  sharedRefused: number;
};

const DROPPED = /^bodima_page_cache_dropped_total\{reason="(evicted|expired|invalidated|stale)"\} (\d+)/gm;
const REFUSED = /^bodima_page_cache_shared_total\{outcome="refused"\} (\d+)/m;

/** The counts in a /metrics text; a metric it lacks counts 0 (a lone process shares nothing). */
export function parseCacheCounts(metrics: string): CacheCounts {
  const counts: CacheCounts = { evicted: 0, expired: 0, invalidated: 0, stale: 0, sharedRefused: 0 };
  for (const [, reason, value] of metrics.matchAll(DROPPED)) counts[reason as keyof CacheCounts] = Number(value);
  counts.sharedRefused = Number(REFUSED.exec(metrics)?.[1] ?? 0);
  return counts;
}

/** What happened between two readings, said as the report says it: "dropped: 3 expired; shared pages refused: 1". */
export function describeCacheCounts(before: CacheCounts, after: CacheCounts): string {
  const dropped = (["expired", "invalidated", "stale", "evicted"] as const)
    .map((reason) => [reason, after[reason] - before[reason]] as const)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${n} ${reason}`);
  const refused = after.sharedRefused - before.sharedRefused;
  return `pages dropped: ${dropped.length > 0 ? dropped.join(", ") : "none"}; shared pages refused: ${refused}`;
}
