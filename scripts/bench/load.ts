import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getRaw } from "./http.ts";
import { type PhaseResult, percentile, type ShapeResult, type StatusCounts } from "./results.ts";

/**
 * The load generator is wrk (Debian's `wrk`, installed by .ci/run): one C
 * thread drives 50 connections with a few percent of one core. autocannon,
 * which we tried first, used a whole core of its own at about 6,000 responses
 * a second of varied pages, so it measured itself rather than the server.
 */
export type LoadOptions = {
  base: string;
  connections: number;
  headers: Record<string, string>;
  /** The paths requested, in order, wrapping round. */
  paths: readonly string[];
  seconds: number;
};

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), "wrk.lua");

type WrkSummary = {
  requests: number;
  durationUs: number;
  errors: number;
  p50Us: number;
  p99Us: number;
  statusCodes: StatusCounts;
  pageCache: Record<string, number>;
};

/** One wrk run (GET only); resolves with its counts and latencies. */
export async function runLoad(options: LoadOptions): Promise<PhaseResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-wrk-"));
  try {
    const pathsFile = path.join(dir, "paths.txt");
    fs.writeFileSync(pathsFile, `${options.paths.join("\n")}\n`);
    const headerArgs = Object.entries(options.headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]);
    const args = [
      "-t1",
      `-c${options.connections}`,
      `-d${Math.max(1, Math.round(options.seconds))}s`,
      "--timeout",
      "10s",
      ...headerArgs,
      "-s",
      SCRIPT,
      options.base,
      "--",
      pathsFile,
    ];
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      child.on("error", (error) => reject(new Error(`wrk could not run (apt-get install wrk): ${error.message}`)));
      child.on("exit", (code) =>
        code === 0 ? resolve(out) : reject(new Error(`wrk exited with ${code}: ${err || out}`)),
      );
    });
    const line = output.split("\n").find((l) => l.startsWith('{"requests"'));
    if (!line) throw new Error(`wrk printed no summary:\n${output}`);
    const summary = JSON.parse(line) as WrkSummary;
    const seconds = summary.durationUs / 1e6;
    return {
      connections: options.connections,
      seconds,
      requests: summary.requests,
      requestsPerSecond: summary.requests / seconds,
      p50: summary.p50Us / 1000,
      p99: summary.p99Us / 1000,
      statusCodes: summary.statusCodes,
      errors: summary.errors,
      pageCache: summary.pageCache,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Asks for each path once, `connections` at a time (the hot mix's warm-up):
 * wrk runs for a fixed time, so it cannot stop after the last one.
 */
export async function requestEach(
  base: string,
  paths: readonly string[],
  connections: number,
  headers: Record<string, string>,
): Promise<PhaseResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const times: number[] = [];
  const statusCodes: StatusCounts = {};
  const pageCache: Record<string, number> = {};
  let next = 0;
  let errors = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++];
      const t0 = performance.now();
      try {
        const response = await getRaw(base + path, headers, agent);
        times.push(performance.now() - t0);
        statusCodes[response.status] = (statusCodes[response.status] ?? 0) + 1;
        const state = String(response.headers["x-page-cache"] ?? "none");
        pageCache[state] = (pageCache[state] ?? 0) + 1;
      } catch {
        errors += 1;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    agent.destroy();
  }
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return {
    connections,
    seconds,
    requests: times.length,
    requestsPerSecond: times.length / seconds,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    statusCodes,
    errors,
    pageCache,
  };
}

/** Requests `path` one after another on one kept-alive connection and times each to its last byte. */
export async function timeShape(
  base: string,
  shape: { name: string; path: string },
  requests: number,
  headers: Record<string, string>,
): Promise<ShapeResult> {
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
