import os from "node:os";
import { MAX_SEED_LISTINGS } from "../seed-args.ts";

export type SoakOptions = {
  minutes: number;
  /** Actions a second to replay; measured (70% of capacity) when absent. */
  rate?: number;
  db: "sqlite" | "postgres";
  /** PostgreSQL server to create the soak's own database on (its database part is only connected to). */
  postgresUrl: string;
  listings: number;
  workers: number;
  port: number;
  owners: number;
  keep: boolean;
  /** Append the run to docs/benchmarks.md (scripts/soak/record.ts). */
  record: boolean;
};

export const SOAK_SHARE_OF_CAPACITY = 0.7;

export const SOAK_USAGE = `Usage: npm run soak -- --minutes N [options]

Builds the app (unless its build is current), seeds a fresh database, starts the production server and replays a
realistic mix at ${SOAK_SHARE_OF_CAPACITY * 100}% of its measured capacity (the most actions a second it
answers with the pages' p99 within 250 ms, first in 15-s steps, then held for a minute: ADRs 116 and 132): hot and cold pages, searches, listing views, saves,
reports, owners signing in, posting and editing, and the background jobs. Prints memory, event-loop delay, latency and error counts each minute, then
checks for drift, errors and lost writes (docs/performance.md; ADR 094). Exits 1
when a check fails.

  --minutes N        minutes of traffic after the capacity measurement (default 30)
  --rate R           actions per second instead of ${SOAK_SHARE_OF_CAPACITY * 100}% of the measured capacity
  --db sqlite|postgres
                     the database (default sqlite, in a temporary data folder)
  --database-url URL PostgreSQL server for --db postgres; a database bodima_soak is
                     created on it and dropped after (default postgres://postgres@127.0.0.1:5432/postgres)
  --listings N       listings to seed (default 40,000)
  --owners N         owner accounts that sign in, post and edit (default 60)
  --workers N        the app's worker processes (default: one per core, as npm start)
  --port P           the app's port (default 3399)
  --keep             keep the data folder (and the PostgreSQL database)
  --record           append the run (capacity, every minute, the checks, the machine and the
                     commit) to docs/benchmarks.md`;

type Parsed = SoakOptions | { help: true } | { error: string };

const VALUE = new Set(["minutes", "rate", "db", "database-url", "listings", "owners", "workers", "port"]);

function whole(raw: string | undefined, name: string, min: number, max: number, fallback: number): number | string {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    return `--${name} must be a whole number from ${min} to ${max}`;
  return Number(raw);
}

export function parseSoakArgs(argv: readonly string[]): Parsed {
  const raw: Record<string, string> = {};
  let keep = false;
  let record = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--help" || arg === "-h") return { help: true };
    if (arg === "--keep" || arg === "--record") {
      if (arg === "--keep") keep = true;
      else record = true;
      continue;
    }
    if (!arg.startsWith("--")) return { error: `Unknown argument: ${arg}` };
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (!VALUE.has(name)) return { error: `Unknown argument: ${arg}` };
    const value = inline ?? argv[++i];
    if (value === undefined || value === "") return { error: `Missing value for --${name}` };
    raw[name] = value;
  }
  const numbers = {
    minutes: whole(raw.minutes, "minutes", 1, 24 * 60, 30),
    listings: whole(raw.listings, "listings", 100, MAX_SEED_LISTINGS, 40_000),
    owners: whole(raw.owners, "owners", 1, 10_000, 60),
    workers: whole(raw.workers, "workers", 1, 64, os.availableParallelism()),
    port: whole(raw.port, "port", 1, 65_535, 3399),
    rate: raw.rate === undefined ? undefined : whole(raw.rate, "rate", 1, 100_000, 0),
  };
  for (const value of Object.values(numbers)) if (typeof value === "string") return { error: value };
  const db = raw.db ?? "sqlite";
  if (db !== "sqlite" && db !== "postgres") return { error: "--db must be sqlite or postgres" };
  const postgresUrl = raw["database-url"] ?? "postgres://postgres@127.0.0.1:5432/postgres";
  if (!/^postgres(ql)?:\/\//.test(postgresUrl)) return { error: "--database-url must be a postgres:// URL" };
  if (raw["database-url"] !== undefined && db !== "postgres")
    return { error: "--database-url goes with --db postgres" };
  return { ...(numbers as Omit<SoakOptions, "db" | "postgresUrl" | "keep">), db, postgresUrl, keep, record };
}
