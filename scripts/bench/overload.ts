// `npm run bench -- --overload`: the start-of-term crowd (docs/performance.md,
// "Overload"). Many connections ask for pages no cache has, far past what the
// machine can render, while one visitor after another opens a page the cache
// has on a new connection. Measures what the crowd is answered, how fast the
// cached page stays, and what the server holds afterwards.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { getRaw } from "./http.ts";
import { runLoad } from "./load.ts";
import { type PhaseResult, percentile } from "./results.ts";

export type OverloadOptions = {
  base: string;
  /** The app's process group (its primary's pid): workers are counted and their memory summed. */
  groupPid: number;
  headers: Record<string, string>;
  /** Never-cached URLs: the baseline and the single requests take theirs from the front, the burst the rest. */
  cold: readonly string[];
  /** A page the cache holds (asked for twice before). */
  cachedPath: string;
  baselineSeconds: number;
  burstSeconds: number;
  burstConnections: number;
  baselineConnections: number;
  log: (line: string) => void;
};

export type OverloadResults = {
  baseline: PhaseResult;
  burst: PhaseResult;
  /** Answers of the cached page, each on a new connection, during the burst: ms, and failures. */
  cachedProbe: {
    requests: number;
    p50: number;
    p99: number;
    max: number;
    failures: number;
    /** Time to the TCP connection alone (ms, p99): a long one is the kernel's or the primary's, not a worker's. */
    connectP99?: number;
    /** p99 of the answers asked in the burst's first PROBE_OPENING_MS, and of those asked after. */
    openingP99?: number;
    laterP99?: number;
    /** X-Page-Cache of its answers: a MISS means the page left the cache during the burst. */
    pageCache: Record<string, number>;
  };
  /** One request at a time, never-cached URLs: median ms before the burst and 3 s after it. */
  single: { before: number; after: number };
  /** Resident memory of the app's processes (MB): before the burst and 10 s after it. */
  memory: {
    beforeMb: number;
    afterMb: number;
    before?: MemoryParts;
    after?: MemoryParts;
    /** Of the resident memory, pages of mapped files (MB): before and 10 s after. */
    fileBeforeMb?: number;
    fileAfterMb?: number;
  };
  /** Process ids of the app before and after: a restarted worker has a new one. */
  processes: { before: number[]; after: number[] };
};

/** Where the workers' memory is (MB, summed over workers, from /metrics): V8's heap and what lives outside it. */
export type MemoryParts = { heapTotal: number; heapUsed: number; external: number; pageCache: number };

/** The workers' memory as their /metrics tell it (prom-client's process metrics and the page caches' size). */
export async function memoryParts(base: string): Promise<MemoryParts | undefined> {
  try {
    const text = (await getRaw(`${base}/metrics`, {}, undefined, 10_000)).body.toString();
    const value = (name: string) => {
      const line = text.split("\n").find((l) => l.startsWith(`${name} `));
      return line ? Number(line.slice(name.length + 1)) / 2 ** 20 : Number.NaN;
    };
    return {
      heapTotal: value("bodima_process_nodejs_heap_size_total_bytes"),
      heapUsed: value("bodima_process_nodejs_heap_size_used_bytes"),
      external: value("bodima_process_nodejs_external_memory_bytes"),
      pageCache: value("bodima_page_cache_bytes"),
    };
  } catch {
    return undefined;
  }
}

const SINGLE_REQUESTS = 10;
const PROBE_EVERY_MS = 100;
/**
 * The burst's opening: its connections are all handed to the workers then, one per worker and turn of
 * a worker's event loop (Node's cluster round robin), and a visitor's new connection waits behind them.
 */
const PROBE_OPENING_MS = 5_000;

/** The app's processes (the group) and their resident memory, from ps; of it, pages of files (MB) from /proc. */
export function processGroup(groupPid: number): { pids: number[]; rssMb: number; fileMb: number } {
  const out = execFileSync("ps", ["-o", "pid=,rss=", "-g", String(groupPid)], { encoding: "utf8" });
  const rows = out
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([pid]) => Number.isFinite(pid));
  return {
    pids: rows.map(([pid]) => pid).sort((a, b) => a - b),
    rssMb: rows.reduce((sum, [, kb]) => sum + kb, 0) / 1024,
    fileMb: rows.reduce((sum, [pid]) => sum + residentFileKb(pid), 0) / 1024,
  };
}

/** Resident pages of files a process maps (the database file, the code): the kernel's to drop, not the app's heap. */
function residentFileKb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/^RssFile:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Median time of one request after another, each on its own connection. */
async function singleRequests(base: string, paths: readonly string[], headers: Record<string, string>) {
  const times: number[] = [];
  for (const path of paths) {
    const started = performance.now();
    await getRaw(base + path, headers);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return percentile(times, 50);
}

/** Asks for `path` on a new connection every PROBE_EVERY_MS until stopped. */
function probeCachedPage(base: string, path: string, headers: Record<string, string>) {
  const times: number[] = [];
  const opening: number[] = [];
  const later: number[] = [];
  const connects: number[] = [];
  const pageCache: Record<string, number> = {};
  let failures = 0;
  let stopped = false;
  const pending = new Set<Promise<void>>();
  const began = performance.now();
  const timer = setInterval(() => {
    if (stopped) return;
    const started = performance.now();
    const agent = new http.Agent({ keepAlive: false });
    const connection = agent.createConnection.bind(agent);
    agent.createConnection = (...args: Parameters<typeof connection>) => {
      const socket = connection(...args);
      socket?.once("connect", () => connects.push(performance.now() - started));
      return socket;
    };
    const request = getRaw(base + path, headers, agent, 10_000)
      .then((response) => {
        const state = String(response.headers["x-page-cache"] ?? "none");
        pageCache[state] = (pageCache[state] ?? 0) + 1;
        if (response.status === 200) {
          const ms = performance.now() - started;
          times.push(ms);
          (started - began < PROBE_OPENING_MS ? opening : later).push(ms);
        } else failures += 1;
      })
      .catch(() => {
        failures += 1;
      })
      .finally(() => {
        agent.destroy();
        pending.delete(request);
      });
    pending.add(request);
  }, PROBE_EVERY_MS);
  return async () => {
    stopped = true;
    clearInterval(timer);
    await Promise.all(pending);
    for (const list of [times, connects, opening, later]) list.sort((a, b) => a - b);
    return {
      connectP99: percentile(connects, 99),
      openingP99: percentile(opening, 99),
      laterP99: percentile(later, 99),
      requests: times.length + failures,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      max: times.at(-1) ?? Number.NaN,
      failures,
      pageCache,
    };
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function measureOverload(options: OverloadOptions): Promise<OverloadResults> {
  const { base, headers, log } = options;
  let next = 0;
  const take = (n: number) => {
    next += n;
    return options.cold.slice(next - n, next);
  };

  for (let i = 0; i < 2; i++) await getRaw(base + options.cachedPath, headers);
  const singleBefore = await singleRequests(base, take(SINGLE_REQUESTS), headers);
  const baselinePaths = take(Math.ceil(options.baselineSeconds * 1_000));
  const afterPaths = take(SINGLE_REQUESTS);
  log(
    `    baseline: ${options.baselineConnections} connections of never-cached pages, ${options.baselineSeconds} s...`,
  );
  const baseline = await runLoad({
    base,
    headers,
    connections: options.baselineConnections,
    seconds: options.baselineSeconds,
    paths: baselinePaths,
  });
  await sleep(2_000);
  const before = processGroup(options.groupPid);
  const partsBefore = await memoryParts(base);

  log(
    `    burst: ${options.burstConnections} connections of never-cached pages, ${options.burstSeconds} s, ` +
      `and ${options.cachedPath} on a new connection every ${PROBE_EVERY_MS} ms...`,
  );
  const stopProbe = probeCachedPage(base, options.cachedPath, headers);
  const burst = await runLoad({
    base,
    headers,
    connections: options.burstConnections,
    seconds: options.burstSeconds,
    paths: options.cold.slice(next),
  });
  const burstEnded = performance.now();
  const cachedProbe = await stopProbe();

  await sleep(Math.max(0, 3_000 - (performance.now() - burstEnded)));
  const singleAfter = await singleRequests(base, afterPaths, headers);
  await sleep(Math.max(0, 10_000 - (performance.now() - burstEnded)));
  const after = processGroup(options.groupPid);
  const partsAfter = await memoryParts(base);

  return {
    baseline,
    burst,
    cachedProbe,
    single: { before: singleBefore, after: singleAfter },
    memory: {
      beforeMb: before.rssMb,
      afterMb: after.rssMb,
      before: partsBefore,
      after: partsAfter,
      fileBeforeMb: before.fileMb,
      fileAfterMb: after.fileMb,
    },
    processes: { before: before.pids, after: after.pids },
  };
}
