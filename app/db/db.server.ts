import fs from "node:fs";
import path from "node:path";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { Database } from "./schema";
import { openSqlite } from "./sqlite-adapter.server";
import { ImmediateSqliteDialect } from "./sqlite-dialect.server";
import { StripNulPlugin } from "./strip-nul-plugin";

export type DialectName = "sqlite" | "postgres";
export type DB = Kysely<Database>;
export type AppDatabase = { db: DB; dialect: DialectName; destroy: () => Promise<void> };

/**
 * DATABASE_URL=postgres://… selects PostgreSQL; otherwise an embedded SQLite
 * file under DATA_DIR (or the path after `sqlite:`; `sqlite::memory:` for tests).
 */
export function createDatabase(options: { databaseUrl?: string; dataDir: string; poolSize?: number }): AppDatabase {
  const url = options.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
    // An idle connection the server closes (restart, failover) is an 'error'
    // event; unhandled it would crash the process. The pool drops that client and
    // the next query opens a new connection, so there is nothing else to do.
    pool.on("error", () => undefined);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new StripNulPlugin()] });
    return { db, dialect: "postgres", destroy: () => db.destroy() };
  }
  let filename = url?.startsWith("sqlite:") ? url.slice("sqlite:".length) : "";
  if (!filename) {
    fs.mkdirSync(options.dataDir, { recursive: true });
    filename = path.join(options.dataDir, "bodima.sqlite");
  }
  const { database } = openSqlite(filename);
  // A second connection for transactions (ADR 109); an in-memory database is one connection's own.
  const transactions = filename === ":memory:" ? undefined : openSqlite(filename).database;
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database, transactions }),
    plugins: [new StripNulPlugin()],
  });
  return { db, dialect: "sqlite", destroy: () => db.destroy() };
}
