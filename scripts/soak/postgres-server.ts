// The PostgreSQL server a soak measures (ADR 110). A production server runs
// autovacuum; the shared server on our machines has it off (its CI settings,
// /etc/postgresql/*/main/conf.d), and a soak against it measured dead rows piling
// up: after 20 minutes, counting browse's results read 9,981 rows from the table
// instead of none (14.5 ms instead of 2.9). When the given server has autovacuum
// off, the soak starts a throwaway server of its own with the defaults.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../free-port.ts";
import { processTree } from "./host.ts";

export type SoakPostgres = {
  /** The admin URL to create the soak's database on. */
  adminUrl: string;
  /** What the record says of the server. */
  description: string;
  /** The server's processes (postmaster and backends) when the soak started it: their CPU is the database's. */
  pids?: () => number[];
  stop(): void;
};

type Settings = { version: string; autovacuum: string };

async function settingsOf(adminUrl: string): Promise<Settings> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; setting: string }>(
      "select name, setting from pg_settings where name in ('server_version', 'autovacuum')",
    );
    const of = (name: string) => rows.find((r) => r.name === name)?.setting ?? "?";
    return { version: of("server_version"), autovacuum: of("autovacuum") };
  } finally {
    await client.end();
  }
}

/** The newest installed server's programs (Debian keeps them out of PATH), or PG_BIN. */
function serverBinaries(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => /^\d+$/.test(v)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest || !fs.existsSync(path.join(root, newest, "bin", "initdb")))
    throw new Error("no PostgreSQL server programs found (set PG_BIN to the folder holding initdb and pg_ctl)");
  return path.join(root, newest, "bin");
}

/** pg_stat_statements, created in the admin database (it counts the statements of every database). */
async function createStatementsExtension(adminUrl: string): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query("create extension if not exists pg_stat_statements");
  } finally {
    await client.end();
  }
}

/** PostgreSQL refuses to run as root: as root, the programs run as the `postgres` account. */
function run(bin: string, args: readonly string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [command, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  const result = spawnSync(command, argv, { encoding: "utf8" });
  if (result.status !== 0)
    throw new Error(`${path.basename(bin)} failed: ${(result.stderr || result.stdout || "").trim().slice(-2000)}`);
}

async function startOwnServer(keep: boolean): Promise<SoakPostgres> {
  const bin = serverBinaries();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-soak-pg-"));
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres:", dir]);
  const data = path.join(dir, "data");
  run(path.join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  // Its log names every statement over 100 ms and every autovacuum, with the time: where a minute's p99
  // went (docs/performance.md). Kept with --keep.
  const logging = "-c log_min_duration_statement=100 -c log_autovacuum_min_duration=0 -c log_line_prefix=%m";
  // Each statement's calls and time, for which ones got slower over the run (scripts/soak/statements.ts).
  const statements = "-c shared_preload_libraries=pg_stat_statements";
  const options = `-c port=${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} ${logging} ${statements}`;
  run(path.join(bin, "pg_ctl"), ["-D", data, "-l", path.join(dir, "server.log"), "-o", options, "-w", "start"]);
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const { version } = await settingsOf(adminUrl);
  await createStatementsExtension(adminUrl);
  return {
    adminUrl,
    description: `PostgreSQL ${version}, autovacuum on: the soak's own server with the defaults (the shared one has autovacuum off)`,
    pids() {
      // postmaster.pid's first line is the postmaster's pid; the backends are its children.
      try {
        const postmaster = Number(fs.readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
        return Number.isInteger(postmaster) && postmaster > 0 ? processTree(postmaster) : [];
      } catch {
        return []; // Stopped.
      }
    },
    stop() {
      try {
        run(path.join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "stop"]);
      } finally {
        if (keep)
          console.log(
            `PostgreSQL data kept: ${data} (start it with ${path.join(bin, "pg_ctl")} -D ${data} start); its log of slow statements and vacuums: ${path.join(dir, "server.log")}`,
          );
        else fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The server at `adminUrl` when it runs autovacuum as production does, else a throwaway one that does. */
export async function soakPostgres(adminUrl: string, keep: boolean): Promise<SoakPostgres> {
  const { version, autovacuum } = await settingsOf(adminUrl);
  if (autovacuum === "on")
    return { adminUrl, description: `PostgreSQL ${version}, autovacuum on: ${adminUrl}`, stop() {} };
  console.log(
    `The PostgreSQL server at ${adminUrl} has autovacuum off, which no production server should: starting a throwaway server with the defaults...`,
  );
  return startOwnServer(keep);
}
