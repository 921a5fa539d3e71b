import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { sql } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDatabase } from "./db.server";
import { openSqlite } from "./sqlite-adapter.server";

// ADR 130: a server's commits never checkpoint the write-ahead log themselves (a checkpoint copies
// the log into the database file and syncs it, blocking the process); a thread of its own does.
// Until a checkpoint, new pages live in the log only, so the database file's size tells whether
// one has run.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function fileDatabase(checkpointThread?: (error: string) => void) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-checkpoint-"));
  dirs.push(dir);
  const file = path.join(dir, "db.sqlite");
  return { app: createDatabase({ databaseUrl: `sqlite:${file}`, dataDir: dir, checkpointThread }), file };
}

/** About 8 MB (2,000 pages) in one commit: twice what makes SQLite checkpoint by default. */
async function writeManyPages(app: ReturnType<typeof createDatabase>) {
  await sql`create table blobs (data blob not null)`.execute(app.db);
  await app.db.transaction().execute(async (trx) => {
    for (let i = 0; i < 2_000; i++) await sql`insert into blobs values (randomblob(4000))`.execute(trx);
  });
}

describe("SQLite's checkpoints on a server", () => {
  it("are left out of the commit and done by the thread soon after", async () => {
    const errors: string[] = [];
    const { app, file } = fileDatabase((error) => errors.push(error));
    try {
      await writeManyPages(app);
      // Right after the commit the rows are in the log only: the commit did not checkpoint.
      expect(fs.statSync(file).size).toBeLessThan(1_000_000);
      // Within a few seconds the thread has copied them into the database file.
      await vi.waitFor(() => expect(fs.statSync(file).size).toBeGreaterThan(8_000_000), {
        timeout: 5_000,
        interval: 50,
      });
      const { rows } = await sql<{ n: number }>`select count(*) as n from blobs`.execute(app.db);
      expect(rows[0].n).toBe(2_000);
      expect(errors).toEqual([]);
    } finally {
      await app.destroy();
    }
  });

  it("are SQLite's own in a script, which serves no requests", async () => {
    const { app, file } = fileDatabase();
    try {
      await writeManyPages(app);
      expect(fs.statSync(file).size).toBeGreaterThan(8_000_000);
    } finally {
      await app.destroy();
    }
  });

  it("stop with the database: once it is destroyed, the thread checkpoints no more", async () => {
    const { app, file } = fileDatabase(() => undefined);
    await sql`create table blobs (data blob not null)`.execute(app.db);
    await app.destroy();
    // Another program then writes 2,000 pages and leaves them in the log (no checkpoint of its own).
    const other = new DatabaseSync(file);
    try {
      other.exec("PRAGMA wal_autocheckpoint = 0");
      other.exec("begin");
      for (let i = 0; i < 2_000; i++) other.exec("insert into blobs values (randomblob(4000))");
      other.exec("commit");
      const size = fs.statSync(file).size;
      // A thread still running would have copied them into the database file within a second or two.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(fs.statSync(file).size).toBe(size);
    } finally {
      other.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      other.close();
    }
  });
});

describe("The checkpoint thread's stop", () => {
  it("is waited for by a process with nothing else to do, which then ends normally", () => {
    // The thread never keeps a process alive on its own (it is unref'd), so a process whose last
    // work is awaiting its stop would end before the thread did: Node calls that an unsettled
    // top-level await (exit code 13). Run in a process of its own, as a script would.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-checkpoint-"));
    dirs.push(dir);
    const file = path.join(dir, "db.sqlite");
    new DatabaseSync(file).close();
    const module = new URL("./sqlite-checkpoints.server.ts", import.meta.url).href;
    const script = path.join(dir, "stop.mjs");
    fs.writeFileSync(
      script,
      `import { startCheckpointThread } from ${JSON.stringify(module)};
      const thread = startCheckpointThread(${JSON.stringify(file)}, { onError: (message) => console.error(message) });
      await new Promise((resolve) => setTimeout(resolve, 100));
      await thread.stop();
      console.log("stopped");`,
    );
    const run = spawnSync(process.execPath, ["--disable-warning=ExperimentalWarning", script], {
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("stopped");
    expect(run.status).toBe(0);
  });
});

describe("A server's SQLite connections", () => {
  it("never wait for another process's lock synchronously, which would freeze every request; a script's do, a little", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-busy-"));
    dirs.push(dir);
    const file = path.join(dir, "db.sqlite");
    const server = openSqlite(file, { serving: true }).raw;
    const script = openSqlite(file).raw;
    server.exec("create table notes (text text)");
    const other = new DatabaseSync(file);
    other.exec("begin immediate");
    /** How long a write held up its thread before SQLite said the database was locked (the least of five tries, so a busy machine pausing the test once does not count). */
    const heldUpMs = (connection: DatabaseSync) => {
      const tries = Array.from({ length: 5 }, () => {
        const started = performance.now();
        expect(() => connection.exec("insert into notes values ('x')")).toThrow(/locked/);
        return performance.now() - started;
      });
      return Math.min(...tries);
    };
    try {
      // The server's write is refused at once (and tried again later, asynchronously: retryWhileBusy).
      expect(heldUpMs(server)).toBeLessThan(8);
      expect(heldUpMs(script)).toBeGreaterThanOrEqual(10);
    } finally {
      other.exec("rollback");
      for (const connection of [other, server, script]) connection.close();
    }
  });
});
