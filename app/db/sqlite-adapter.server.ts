import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/**
 * Kysely's SqliteDialect expects a better-sqlite3-like object; node:sqlite's
 * DatabaseSync is close enough with this thin adapter (see ENGINEERING.md).
 */
export function openSqlite(filename: string): { database: SqliteDatabase; raw: DatabaseSync } {
  const raw = new DatabaseSync(filename);
  raw.exec("PRAGMA journal_mode = WAL");
  raw.exec("PRAGMA synchronous = NORMAL");
  raw.exec("PRAGMA foreign_keys = ON");
  // A short wait here: node:sqlite waits synchronously, freezing every request of the process.
  // Longer waits for another process's write happen asynchronously (retryWhileBusy, sqlite-dialect.server.ts).
  raw.exec("PRAGMA busy_timeout = 100");
  // 64 MB page cache: the default 2 MB made scans of 100,000 listings slow.
  raw.exec("PRAGMA cache_size = -65536");
  const database: SqliteDatabase = {
    close: () => raw.close(),
    prepare(sqlText: string): SqliteStatement {
      const stmt = raw.prepare(sqlText);
      const params = (p: ReadonlyArray<unknown>) => p as SQLInputValue[];
      return {
        reader: stmt.columns().length > 0,
        all: (p) => stmt.all(...params(p)),
        run: (p) => stmt.run(...params(p)),
        iterate: (p) => stmt.iterate(...params(p)),
      };
    },
  };
  return { database, raw };
}
