// How long a write transaction takes when two server processes write one SQLite file at once
// (ADR 133): `node --disable-warning=ExperimentalWarning scripts/bench/sqlite-writes.ts [seconds]`.
// Two processes, three writers each, every writer a transaction (an insert, about a millisecond of
// work, an update of one shared row) every 0–20 ms, through the app's own dialect (retryWhileBusy)
// with a server's settings (busy_timeout 0, the checkpoint thread). Prints the percentiles of every
// transaction's time, the share that took 10 ms or more, and the CPU a write.
import { fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { withAppModules } from "../app-modules.ts";

const WRITERS = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function writeFor(file: string, seconds: number): Promise<{ latencies: number[]; cpuMs: number }> {
  return withAppModules(async (load) => {
    const { createDatabase } = await load<typeof import("../../app/db/db.server.ts")>("app/db/db.server.ts");
    const { sql } = await import("kysely");
    const app = createDatabase({
      databaseUrl: `sqlite:${file}`,
      dataDir: path.dirname(file),
      checkpointThread: () => {},
    });
    const latencies: number[] = [];
    const end = Date.now() + seconds * 1000;
    const writer = async () => {
      while (Date.now() < end) {
        await sleep(Math.random() * 20);
        const started = performance.now();
        await app.db.transaction().execute(async (trx) => {
          await sql`insert into notes (text) values (${"x".repeat(300)})`.execute(trx);
          const spin = performance.now() + 0.5 + Math.random();
          while (performance.now() < spin);
          await sql`update counters set n = n + 1 where id = 1`.execute(trx);
        });
        latencies.push(performance.now() - started);
      }
    };
    const cpu = process.cpuUsage();
    await Promise.all(Array.from({ length: WRITERS }, writer));
    const used = process.cpuUsage(cpu);
    return { latencies, cpuMs: (used.user + used.system) / 1000 };
  });
}

if (process.argv[2] === "--child") {
  const result = await writeFor(process.argv[3], Number(process.argv[4]));
  // Sent, then out: the process's database is left for the parent to delete.
  process.send?.(result, () => process.exit(0));
} else {
  const seconds = Number(process.argv[2] ?? 10);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-writes-"));
  const file = path.join(dir, "writes.sqlite");
  const raw = new DatabaseSync(file);
  raw.exec(`pragma journal_mode = wal;
    create table notes (id integer primary key, text text);
    create table counters (id integer primary key, n integer);
    insert into counters values (1, 0);`);
  raw.close();
  const script = fileURLToPath(import.meta.url);
  const results = await Promise.all(
    [0, 1].map(
      () =>
        new Promise<{ latencies: number[]; cpuMs: number }>((resolve, reject) => {
          const child = fork(script, ["--child", file, String(seconds)], {
            execArgv: ["--disable-warning=ExperimentalWarning"],
          });
          child.on("message", (message) => resolve(message as { latencies: number[]; cpuMs: number }));
          child.on("exit", (code) => reject(new Error(`a writing process ended with ${code}`)));
        }),
    ),
  );
  fs.rmSync(dir, { recursive: true, force: true });
  const all = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const at = (q: number) => all[Math.min(all.length - 1, Math.floor(q * all.length))].toFixed(1);
  const slow = all.filter((ms) => ms >= 10).length;
  const cpuMs = results.reduce((sum, r) => sum + r.cpuMs, 0);
  console.log(
    `${all.length} writes in ${seconds} s: p50 ${at(0.5)} ms, p90 ${at(0.9)}, p99 ${at(0.99)}, max ${all.at(-1)?.toFixed(1)}; ` +
      `${((100 * slow) / all.length).toFixed(1)}% took 10 ms or more; CPU ${(cpuMs / all.length).toFixed(2)} ms a write`,
  );
}
