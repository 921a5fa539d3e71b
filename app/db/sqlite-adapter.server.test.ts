import { DatabaseSync } from "node:sqlite";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createDatabase } from "./db.server";
import { createStatementCache } from "./sqlite-adapter.server";

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
});
