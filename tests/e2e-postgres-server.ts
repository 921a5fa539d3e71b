// Starts the production server on a fresh PostgreSQL database for the
// "postgres" Playwright project, and drops the database when it stops.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) throw new Error("TEST_DATABASE_URL is required");
// The name carries its creation time: Playwright may kill this process before it
// can drop its database, so each start also drops databases left by old runs.
const name = `bodima_e2e_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString("hex")}`;
const STALE_AFTER_SECONDS = 3 * 60 * 60;

async function admin<T extends pg.QueryResultRow>(query: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return (await client.query<T>(query)).rows;
  } finally {
    await client.end();
  }
}

const existing = await admin<{ datname: string }>(`select datname from pg_database where datname like 'bodima_e2e_%'`);
for (const { datname } of existing) {
  const created = Number(/^bodima_e2e_(\d+)_/.exec(datname)?.[1] ?? 0);
  if (created < Date.now() / 1000 - STALE_AFTER_SECONDS) {
    await admin(`drop database if exists ${datname} with (force)`).catch(() => undefined);
  }
}
await admin(`create database ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
// For the browser tests' factories (tests/e2e/server-db.ts), which write owners straight into it.
const dataDir = process.env.DATA_DIR!;
fs.mkdirSync(dataDir, { recursive: true });
fs.writeFileSync(path.join(dataDir, "database-url"), url.toString());

const child = spawn(process.execPath, ["--disable-warning=ExperimentalWarning", "server.ts"], {
  env: { ...process.env, DATABASE_URL: url.toString() },
  stdio: "inherit",
});

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  child.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 500));
  await admin(`drop database if exists ${name} with (force)`).catch(() => undefined);
  process.exit(code);
}
process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => void stop(0));
child.on("exit", (code) => void stop(code ?? 0));
