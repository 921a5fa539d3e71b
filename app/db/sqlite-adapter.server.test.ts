import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createDatabase } from "./db.server";
import { createStatementCache, SCHEMA_CHECK_MS } from "./sqlite-adapter.server";

// ADR 060: prepared statements are kept per SQL text and reused.

describe("the prepared-statement cache", () => {
  it("prepares a text once, reuses it, and drops the least recently used past its size", () => {
    const raw = new DatabaseSync(":memory:");
    const cache = createStatementCache(raw, 2);
    const one = cache.get("select 1 as n");
    expect(cache.get("select 1 as n").stmt).toBe(one.stmt);
    expect(one.reader).toBe(true);
    cache.get("select 2 as n");
    cache.get("select 1 as n"); // now the most recent
    cache.get("select 3 as n"); // drops "select 2"
    expect(cache.size).toBe(2);
    expect(cache.get("select 1 as n").stmt).toBe(one.stmt);
    expect(cache.get("create table t (x)").reader).toBe(false);
    raw.close();
  });

  it("answers right through Kysely after an error, after a schema change, and beside a stream", async () => {
    const { db, destroy } = createDatabase({ databaseUrl: "sqlite::memory:", dataDir: "" });
    await sql`create table notes (id integer primary key, text text not null unique)`.execute(db);
    const insert = (text: string) =>
      db
        .insertInto("notes" as never)
        .values({ text } as never)
        .execute();
    await insert("a");
    await expect(insert("a")).rejects.toThrow(/UNIQUE/);
    await insert("b");
    const select = () =>
      db
        .selectFrom("notes" as never)
        .selectAll()
        .orderBy("id" as never)
        .execute();
    expect((await select()).map((r) => (r as { text: string }).text)).toEqual(["a", "b"]);
    // A column added after the statement was prepared: SQLite prepares it again.
    await sql`alter table notes add column extra text`.execute(db);
    expect(Object.keys((await select())[0] as object)).toContain("extra");
    // A stream reads through a statement of its own, the cached one untouched.
    const seen: string[] = [];
    for await (const row of db
      .selectFrom("notes" as never)
      .selectAll()
      .orderBy("id" as never)
      .stream())
      seen.push((row as { text: string }).text);
    expect(seen).toEqual(["a", "b"]);
    expect(await select()).toHaveLength(2);
    await destroy();
  });

  // ADR 131: the schema is read after a write in this process, otherwise at most every SCHEMA_CHECK_MS.
  // (A change made on another connection reaches a connection's own columns only once SQLite has
  // reloaded its schema there, one statement later; the cache's part is to prepare again.)
  it("reads the schema once for many reads, at once after a write in the process, and in time after another process's change", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-schema-"));
    const file = path.join(dir, "db.sqlite");
    const setup = new DatabaseSync(file);
    setup.exec("create table notes (id integer primary key, text text)");
    setup.close();
    let clock = 0;
    const now = () => clock;
    const one = new DatabaseSync(file);
    const two = new DatabaseSync(file);
    const cache = createStatementCache(one, 10, { now });
    const other = createStatementCache(two, 10, { now });
    const select = () => cache.get("select * from notes").stmt;
    const first = select();
    for (let i = 0; i < 50; i++) select().all();
    expect(cache.checks).toBe(1);
    expect(select()).toBe(first);

    // A schema change on another connection of this process is a write: the next statement checks and prepares again.
    other.get("alter table notes add column extra text").stmt.run();
    const second = select();
    expect(cache.checks).toBe(2);
    expect(second).not.toBe(first);
    clock += SCHEMA_CHECK_MS / 2;
    expect(select()).toBe(second);
    expect(cache.checks).toBe(2);

    // Another process's change (no write through this process) is noticed once the interval has passed.
    const outside = new DatabaseSync(file);
    outside.exec("alter table notes add column later text");
    outside.close();
    expect(select()).toBe(second);
    clock += SCHEMA_CHECK_MS;
    expect(select()).not.toBe(second);
    expect(cache.checks).toBe(3);
    one.close();
    two.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
