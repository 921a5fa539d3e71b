import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { createDatabase } from "./db.server";

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
});
