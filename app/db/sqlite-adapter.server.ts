import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import type { SqliteDatabase, SqliteStatement } from "kysely";
import { BACKSTOP_AUTOCHECKPOINT_PAGES } from "./sqlite-checkpoints.server";

/**
 * Kysely's SqliteDialect expects a better-sqlite3-like object; node:sqlite's
 * DatabaseSync is close enough with this thin adapter.
 */
export function openSqlite(
  filename: string,
  { serving = false }: { serving?: boolean } = {},
): { database: SqliteDatabase; raw: DatabaseSync } {
  const raw = new DatabaseSync(filename);
  raw.exec("PRAGMA journal_mode = WAL");
  raw.exec("PRAGMA synchronous = NORMAL");
  raw.exec("PRAGMA foreign_keys = ON");
  // node:sqlite waits out a lock synchronously, freezing every request of the process: a server
  // never does (ADR 130), a script a little. Waits for another process's write otherwise happen
  // asynchronously (retryWhileBusy, sqlite-dialect.server.ts).
  raw.exec(`PRAGMA busy_timeout = ${serving ? 0 : 10}`);
  // 64 MB page cache: the default 2 MB made scans of 100,000 listings slow.
  raw.exec("PRAGMA cache_size = -65536");
  // A server leaves checkpoints to a thread of its own: this is then only a backstop (ADR 130).
  if (serving) raw.exec(`PRAGMA wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
  const statements = createStatementCache(raw, STATEMENT_CACHE_SIZE);
  const params = (p: ReadonlyArray<unknown>) => p as SQLInputValue[];
  const database: SqliteDatabase = {
    close: () => raw.close(),
    prepare(sqlText: string): SqliteStatement {
      const { stmt, reader } = statements.get(sqlText);
      return {
        reader,
        all: (p) => stmt.all(...params(p)),
        run: (p) => stmt.run(...params(p)),
        // A stream stays open across awaits: it gets a statement of its own, never a shared one.
        iterate: (p) => raw.prepare(sqlText).iterate(...params(p)),
      };
    },
  };
  return { database, raw };
}

/**
 * How many prepared statements a connection keeps. A page runs the same few
 * query texts over and over (a listing by slug, its photos, a count), and
 * preparing one cost as much as running it (ADR 060; in the cold benchmark mix 0.9 s of 6 s
 * of SQLite time went to preparing); the app has a few hundred query texts.
 */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * How long a connection trusts the schema it last saw: another process's schema change (a
 * migration run beside a server) is noticed within this. Checking before every statement cost
 * 7–14 µs each, about 3% of a SQLite worker's CPU under the soak's mix (ADR 131).
 */
export const SCHEMA_CHECK_MS = 100;

/**
 * Statements that are not reads (writes, and schema changes among them) run through any cache of
 * this process: each cache checks the schema again before its next statement once this has moved,
 * so a migration on one connection (transactions have their own, ADR 109) is seen at once by the other.
 */
let writesInProcess = 0;

/**
 * Prepared statements by their SQL text, least recently used first out. Safe to
 * share because `all` and `run` finish synchronously (node:sqlite resets the
 * statement after each call, also after an error). A schema change (a
 * migration, here or in another process) empties it: SQLite would prepare a
 * statement again by itself, but node:sqlite keeps the columns it first saw,
 * so a `select *` would miss a column added since. The schema is checked after
 * a write in this process, and otherwise at most every `SCHEMA_CHECK_MS` (ADR 131).
 */
export function createStatementCache(
  raw: DatabaseSync,
  size: number,
  { now = () => performance.now() }: { now?: () => number } = {},
) {
  const cache = new Map<string, { stmt: StatementSync; reader: boolean }>();
  const schemaVersion = raw.prepare("PRAGMA schema_version");
  let seenVersion: unknown;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let writesSeen = -1;
  let checks = 0;
  function checkSchema(): void {
    const at = now();
    if (writesSeen === writesInProcess && at - checkedAt < SCHEMA_CHECK_MS) return;
    checks++;
    checkedAt = at;
    writesSeen = writesInProcess;
    const version = schemaVersion.get()?.schema_version;
    if (version !== seenVersion) {
      cache.clear();
      seenVersion = version;
    }
  }
  return {
    get(sqlText: string) {
      checkSchema();
      let entry = cache.get(sqlText);
      if (entry) {
        cache.delete(sqlText);
      } else {
        const stmt = raw.prepare(sqlText);
        entry = { stmt, reader: stmt.columns().length > 0 };
        if (cache.size >= size) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sqlText, entry);
      // Counted before it runs: the statement after it, here or on another connection, checks again.
      if (!entry.reader) writesInProcess++;
      return entry;
    },
    get size() {
      return cache.size;
    },
    /** How many times the schema was read: for the tests. */
    get checks() {
      return checks;
    },
  };
}
