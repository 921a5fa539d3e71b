import fs from "node:fs";
import { percentile } from "../bench/results.ts";
import type { Minute } from "./verdict.ts";

/**
 * What the soak reads each minute besides its own timings: the resident memory
 * of the server's processes from /proc, and the server's own figures from
 * /metrics (event-loop delay, page-cache size, rate-limit windows).
 */

/**
 * The fields of /proc/<pid>/stat after the command (which may hold spaces), from 0: state ppid pgrp
 * session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...; null for a process that has gone.
 */
export function statFields(pid: number | string): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** Every process whose stat field `field` (1 ppid, 2 pgrp) is `value`. */
export function pidsWhere(field: number, value: number): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    if (Number(statFields(entry)?.[field]) === value) pids.push(Number(entry));
  }
  return pids;
}

/** Every process in the process group `pgid` (the server's primary and its workers: startService makes one group). */
export function groupPids(pgid: number): number[] {
  return pidsWhere(2, pgid);
}

/** Resident memory (VmRSS) of the processes, in MB; one that has gone counts 0. */
export function residentMb(pids: readonly number[]): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      const found = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
      if (found) kb += Number(found[1]);
    } catch {
      // Exited.
    }
  }
  return kb / 1024;
}

/** The value of an unlabelled sample, or the largest of a labelled metric's samples; null when absent. */
export function metricValue(text: string, name: string): number | null {
  let found: number | null = null;
  for (const match of text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? ([^\\s]+)`, "gm"))) {
    const value = Number(match[1]);
    if (Number.isFinite(value)) found = found === null ? value : Math.max(found, value);
  }
  return found;
}

export type ServerFigures = Pick<
  Minute,
  | "heapUsedMb"
  | "loopP99Ms"
  | "loopMaxMs"
  | "pageCacheBytes"
  | "pageCacheMaxBytes"
  | "limitKeys"
  | "limitMaxKeys"
  | "fullestLimit"
  | "limitOverflows"
>;

/** The limit whose store holds the most windows, by its label. */
export function fullestLimit(text: string): string | null {
  let best: { limit: string; n: number } | null = null;
  for (const match of text.matchAll(/^bodima_rate_limit_keys\{limit="([^"]*)"\} (\d+)/gm)) {
    const n = Number(match[2]);
    if (!best || n > best.n) best = { limit: match[1], n };
  }
  return best?.limit ?? null;
}

/** Reads /metrics with the token; the figures are null when it does not answer. */
export async function serverFigures(base: string, token: string): Promise<ServerFigures> {
  let text = "";
  try {
    const response = await fetch(`${base}/metrics`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
    });
    if (response.ok) text = await response.text();
  } catch {
    // Counted as missing figures below.
  }
  const ms = (seconds: number | null) => (seconds === null ? null : seconds * 1000);
  const heapBytes = metricValue(text, "bodima_process_nodejs_heap_size_used_bytes");
  return {
    heapUsedMb: heapBytes === null ? null : heapBytes / 1024 / 1024,
    // prom-client's event-loop figures (collectDefaultMetrics), measured since the last scrape.
    loopP99Ms: ms(metricValue(text, "bodima_process_nodejs_eventloop_lag_p99_seconds")),
    loopMaxMs: ms(metricValue(text, "bodima_process_nodejs_eventloop_lag_max_seconds")),
    pageCacheBytes: metricValue(text, "bodima_page_cache_bytes"),
    pageCacheMaxBytes: metricValue(text, "bodima_page_cache_max_bytes"),
    limitKeys: metricValue(text, "bodima_rate_limit_keys"),
    limitMaxKeys: metricValue(text, "bodima_rate_limit_max_keys"),
    fullestLimit: fullestLimit(text),
    limitOverflows: metricValue(text, "bodima_rate_limit_overflow_total"),
  };
}

/** Counts and timings of one minute, gathered as answers arrive. */
export function createWindow() {
  let times: number[] = [];
  let errors = 0;
  let limited = 0;
  let late = 0;
  const errorStatuses = new Map<string, number>();
  return {
    add(kind: string, ms: number, status: number, error: boolean, reason?: string) {
      times.push(ms);
      if (status === 429) limited += 1;
      if (error) {
        errors += 1;
        const key = `${kind} ${status || reason || "no answer"}`;
        errorStatuses.set(key, (errorStatuses.get(key) ?? 0) + 1);
      }
    },
    late() {
      late += 1;
    },
    /** The minute's figures; starts the next minute. */
    take() {
      const sorted = times.sort((a, b) => a - b);
      const figures = {
        requests: sorted.length,
        p50Ms: percentile(sorted, 50),
        p99Ms: percentile(sorted, 99),
        errors,
        limited,
        late,
        errorStatuses: [...errorStatuses].map(([k, n]) => `${k} ×${n}`),
      };
      times = [];
      errors = 0;
      limited = 0;
      late = 0;
      errorStatuses.clear();
      return figures;
    },
  };
}
