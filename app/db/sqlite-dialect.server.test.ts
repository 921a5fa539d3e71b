import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { createDatabase } from "./db.server";
import { BUSY_RETRY_MAX_MS, busyRetryDelay } from "./sqlite-dialect.server";

// ADR 034: several worker processes write one SQLite file. A write that
// finds another process holding the lock waits for it (asynchronously: the
// process keeps answering meanwhile) and is then done, never lost or refused.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function fileDatabase() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-busy-"));
  dirs.push(dir);
  const file = path.join(dir, "db.sqlite");
  const app = createDatabase({ databaseUrl: `sqlite:${file}`, dataDir: dir });
  return { app, file };
}

describe("SQLite written by several processes", () => {
  it("tries again for a lock soon after a collision, then less often, never in step with another process (ADR 133)", () => {
    // Another worker's write holds the lock for a millisecond or two: the first tries come that soon.
    const shortest = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((round) => busyRetryDelay(round, () => 0));
    const longest = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((round) => busyRetryDelay(round, () => 1));
    expect(shortest).toEqual([0.5, 1, 2, 4, 8, 16, 32, 32, 32]);
    expect(longest).toEqual([1, 2, 4, 8, 16, 32, 64, 64, 64]);
    expect(Math.max(...longest)).toBe(BUSY_RETRY_MAX_MS);
    // Between half and all of each step, at random: two processes that collided do not collide again.
    const waits = new Set(Array.from({ length: 20 }, () => busyRetryDelay(3)));
    expect(waits.size).toBeGreaterThan(10);
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(2);
      expect(wait).toBeLessThanOrEqual(4);
    }
  });

  it("waits out another process's long write, for a transaction and a single statement, without blocking the process", async () => {
    const { app, file } = fileDatabase();
    await sql`create table notes (text text not null)`.execute(app.db);
    // Another process takes the write lock and keeps it for 600 ms (far past busy_timeout).
    const other = new DatabaseSync(file);
    other.exec("begin immediate");
    other.exec("insert into notes values ('from the other process')");
    setTimeout(() => other.exec("commit"), 600);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    try {
      await Promise.all([
        app.db.transaction().execute(async (trx) => {
          await sql`insert into notes values ('in a transaction')`.execute(trx);
        }),
        sql`insert into notes values ('on its own')`.execute(app.db),
      ]);
    } finally {
      clearInterval(ticker);
      other.close();
    }
    const rows = await sql<{ text: string }>`select text from notes order by text`.execute(app.db);
    expect(rows.rows.map((r) => r.text)).toEqual(["from the other process", "in a transaction", "on its own"]);
    // The event loop ran while the writes waited (a synchronous wait would have frozen it).
    expect(ticks).toBeGreaterThan(10);
    await app.destroy();
  });

  it("answers reads while a transaction waits for another process's lock, and runs its transactions one at a time", async () => {
    // ADR 109: a page render reads while an owner's write waits for the other worker to finish.
    const { app, file } = fileDatabase();
    await sql`create table notes (text text not null)`.execute(app.db);
    await sql`insert into notes values ('before')`.execute(app.db);
    const other = new DatabaseSync(file);
    other.exec("begin immediate");
    setTimeout(() => other.exec("commit"), 600);
    const order: string[] = [];
    const write = (text: string) =>
      app.db.transaction().execute(async (trx) => {
        order.push(`begin ${text}`);
        await sql`insert into notes values (${text})`.execute(trx);
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push(`commit ${text}`);
      });
    try {
      const writes = [write("first"), write("second")];
      await new Promise((resolve) => setTimeout(resolve, 150));
      // The transactions wait for the lock; a read is answered meanwhile, and sees only what is committed.
      const started = performance.now();
      const read = await sql<{ text: string }>`select text from notes`.execute(app.db);
      expect(performance.now() - started).toBeLessThan(100);
      expect(read.rows.map((r) => r.text)).toEqual(["before"]);
      expect(order).toEqual([]);
      await Promise.all(writes);
    } finally {
      other.close();
    }
    expect(order).toEqual(["begin first", "commit first", "begin second", "commit second"]);
    const rows = await sql<{ text: string }>`select text from notes order by rowid`.execute(app.db);
    expect(rows.rows.map((r) => r.text)).toEqual(["before", "first", "second"]);
    await app.destroy();
  });

  it("keeps a rolled-back transaction's writes from everyone, and the next transaction goes on", async () => {
    const { app } = fileDatabase();
    await sql`create table notes (text text not null)`.execute(app.db);
    await expect(
      app.db.transaction().execute(async (trx) => {
        await sql`insert into notes values ('undone')`.execute(trx);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    await app.db.transaction().execute(async (trx) => {
      await sql`insert into notes values ('kept')`.execute(trx);
    });
    const rows = await sql<{ text: string }>`select text from notes`.execute(app.db);
    expect(rows.rows.map((r) => r.text)).toEqual(["kept"]);
    await app.destroy();
  });
});
