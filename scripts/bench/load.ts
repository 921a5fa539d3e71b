import http from "node:http";
import autocannon from "autocannon";
import { getRaw } from "./http.ts";
import { percentile, type PhaseResult, type ShapeResult, type StatusCounts } from "./results.ts";

export type LoadOptions = {
  base: string;
  connections: number;
  headers: Record<string, string>;
  /** The path of each next request. */
  nextPath: () => string;
  /** Run this many seconds... */
  seconds?: number;
  /** ...or until this many responses, whichever comes first. */
  amount?: number;
};

/** One autocannon run, every request's path from `nextPath` (GET only). */
export async function runLoad(options: LoadOptions): Promise<PhaseResult> {
  const instance = autocannon({
    url: options.base,
    connections: options.amount ? Math.min(options.connections, options.amount) : options.connections,
    // autocannon ignores its duration when given an amount, so the time limit is kept here.
    ...(options.amount ? { amount: options.amount } : { duration: options.seconds }),
    headers: options.headers,
    requests: [{ method: "GET", setupRequest: (request) => ({ ...request, path: options.nextPath() }) }],
  });
  const timer = options.amount && options.seconds ? setTimeout(() => instance.stop(), options.seconds * 1000) : undefined;
  const result = await instance;
  clearTimeout(timer);
  const statusCodes: StatusCounts = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]));
  return {
    connections: options.connections,
    seconds: result.duration,
    requests: result.requests.total,
    requestsPerSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statusCodes,
    errors: result.errors + result.timeouts,
  };
}

/** Requests `path` one after another on one kept-alive connection and times each to its last byte. */
export async function timeShape(base: string, shape: { name: string; path: string }, requests: number, headers: Record<string, string>): Promise<ShapeResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    // Two unmeasured requests open the connection and load what the first query reads.
    for (let i = 0; i < 2; i++) await getRaw(base + shape.path, headers, agent);
    const times: number[] = [];
    const statusCodes: StatusCounts = {};
    for (let i = 0; i < requests; i++) {
      const started = performance.now();
      const response = await getRaw(base + shape.path, headers, agent);
      times.push(performance.now() - started);
      statusCodes[response.status] = (statusCodes[response.status] ?? 0) + 1;
    }
    times.sort((a, b) => a - b);
    return { ...shape, requests, p50: percentile(times, 50), p95: percentile(times, 95), statusCodes };
  } finally {
    agent.destroy();
  }
}
