import os from "node:os";
import { MAX_SEED_LISTINGS } from "../seed-args.ts";

export type BenchOptions = {
  listings: number;
  /** PostgreSQL to seed and serve from; SQLite in a temporary data folder when absent. */
  databaseUrl?: string;
  /** Seconds per measured phase. */
  duration: number;
  connections: number;
  short: boolean;
  keep: boolean;
  /** The app's port; the bare node:http server takes the next one. */
  port: number;
  json?: string;
  check: boolean;
  /** Append the figures to docs/benchmarks.md (scripts/bench/record.ts). */
  record: boolean;
  /** Distinct URLs in the hot mix. */
  hotUrls: number;
  /** Sequential requests timed per search shape. */
  shapeRequests: number;
  /** The app's worker processes (WEB_CONCURRENCY); default one per core, as `npm start`. */
  workers: number;
  /** Measure the start-of-term crowd instead (scripts/bench/overload.ts): --connections and --duration are the burst's. */
  overload: boolean;
  /** Measure the CPU a cold page takes by kind instead (scripts/bench/cold-cpu.ts). */
  coldCpu: boolean;
};

/** The crowd of --overload: never-cached pages on 400 connections for 40 s. */
const OVERLOAD = { duration: 40, connections: 400 };
/** --cold-cpu: one worker, few connections, so each page's CPU is its own and not the sharing's. */
const COLD_CPU = { workers: 1, connections: 4 };
const FULL = { listings: 100_000, duration: 20, hotUrls: 5_000, shapeRequests: 50 };
// Enough to prove every phase works in a few seconds each, not to measure anything.
const SHORT = { listings: 3_000, duration: 3, hotUrls: 500, shapeRequests: 10 };

export const BENCH_USAGE = `Usage: npm run bench -- [options]

Seeds a fresh database, starts the production server and measures, with wrk:
(a) a bare node:http server sending the app's stylesheet bytes, (b) that stylesheet
from the app, (c) a hot mix of ${FULL.hotUrls.toLocaleString("en-US")} public URLs with Zipf-like popularity (after one
unmeasured pass over them, measured at once), (d) a cold mix of URLs never requested before, and
(e) each search shape from scripts/search-shapes.ts with one connection.

  --listings N         listings to seed (default ${FULL.listings.toLocaleString("en-US")}, at most ${MAX_SEED_LISTINGS.toLocaleString("en-US")})
  --database-url URL   PostgreSQL database to seed and serve from, used as it is:
                       migrated, then N listings are added; nothing is dropped
                       (default: SQLite in a temporary data folder)
  --duration S         seconds per measured phase (default ${FULL.duration})
  --connections C      connections for phases (a) to (d) (default 50)
  --short              ${SHORT.listings.toLocaleString("en-US")} listings, ${SHORT.duration} s per phase, ${SHORT.hotUrls} hot URLs: proves the harness works
  --workers N          the app's worker processes, WEB_CONCURRENCY (default: one per core, as npm start)
  --port P             the app's port; the bare server uses P+1 (default 3299)
  --json FILE          also write the results as JSON
  --keep               keep the temporary data folder
  --check              exit 1 when a budget fails (budgets are always printed)
  --overload           measure the start-of-term crowd instead: a baseline at 8 connections
                       of never-cached pages, then ${OVERLOAD.connections} connections of them for ${OVERLOAD.duration} s
                       while a cached page is asked for on new connections (docs/performance.md)
  --cold-cpu           measure instead the server's CPU a never-cached page, by kind (listing,
                       browse, JSON...): one worker and 4 connections unless given; to compare
                       two builds, run it in each checkout in turns (docs/performance.md)
  --record             append the figures, the machine and the commit to docs/benchmarks.md
                       (not with --short, which measures nothing)`;

export type BenchArgs = BenchOptions | { help: true } | { error: string };

type Raw = Partial<
  Record<"listings" | "database-url" | "duration" | "connections" | "port" | "json" | "workers", string>
>;

const VALUE_FLAGS = new Set<keyof Raw>([
  "listings",
  "database-url",
  "duration",
  "connections",
  "port",
  "json",
  "workers",
]);

function wholeNumber(raw: string | undefined, name: string, min: number, max: number): number | string | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    return `--${name} must be a whole number from ${min} to ${max}`;
  }
  return Number(raw);
}

/** Reads the options above (`--name value` or `--name=value`); --short changes the defaults, not explicit values. */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const raw: Raw = {};
  const flags = { short: false, keep: false, check: false, record: false, overload: false, coldCpu: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--help" || arg === "-h") return { help: true };
    if (!arg.startsWith("--")) return { error: `Unknown argument: ${arg}` };
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    const flag = name === "cold-cpu" ? "coldCpu" : name;
    if (
      flag === "short" ||
      flag === "keep" ||
      flag === "check" ||
      flag === "record" ||
      flag === "overload" ||
      flag === "coldCpu"
    ) {
      if (inline !== undefined) return { error: `--${name} takes no value` };
      flags[flag] = true;
    } else if (VALUE_FLAGS.has(name as keyof Raw)) {
      const value = inline ?? argv[++i];
      if (value === undefined || value === "") return { error: `Missing value for --${name}` };
      raw[name as keyof Raw] = value;
    } else {
      return { error: `Unknown argument: ${arg}` };
    }
  }

  if (flags.record && flags.short) {
    return { error: "--record keeps measured figures; a --short run measures nothing, so it cannot be recorded" };
  }
  if (flags.coldCpu && (flags.record || flags.overload)) {
    return { error: "--cold-cpu prints its figures only: it takes neither --record nor --overload" };
  }
  const defaults = flags.short ? SHORT : FULL;
  const numbers = {
    listings: wholeNumber(raw.listings, "listings", 1, MAX_SEED_LISTINGS) ?? defaults.listings,
    duration:
      wholeNumber(raw.duration, "duration", 1, 3_600) ?? (flags.overload ? OVERLOAD.duration : defaults.duration),
    connections:
      wholeNumber(raw.connections, "connections", 1, 1_000) ??
      (flags.overload ? OVERLOAD.connections : flags.coldCpu ? COLD_CPU.connections : 50),
    port: wholeNumber(raw.port, "port", 1, 65_534) ?? 3299,
    workers:
      wholeNumber(raw.workers, "workers", 1, 64) ?? (flags.coldCpu ? COLD_CPU.workers : os.availableParallelism()),
  };
  for (const value of Object.values(numbers)) if (typeof value === "string") return { error: value };

  const databaseUrl = raw["database-url"];
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return { error: "--database-url must be a postgres:// URL" };
  }
  return {
    ...(numbers as { listings: number; duration: number; connections: number; port: number; workers: number }),
    databaseUrl,
    json: raw.json,
    ...flags,
    hotUrls: defaults.hotUrls,
    shapeRequests: defaults.shapeRequests,
  };
}
