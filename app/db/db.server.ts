import fs from "node:fs";
import path from "node:path";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { Database } from "./schema";
import { openSqlite } from "./sqlite-adapter.server";
import { startCheckpointThread } from "./sqlite-checkpoints.server";
import { ImmediateSqliteDialect } from "./sqlite-dialect.server";
import { StripNulPlugin } from "./strip-nul-plugin";

export type DialectName = "sqlite" | "postgres";
export type DB = Kysely<Database>;
export type AppDatabase = { db: DB; dialect: DialectName; destroy: () => Promise<void> };

/**
 * DATABASE_URL=postgres://… selects PostgreSQL; otherwise an embedded SQLite
 * file under DATA_DIR (or the path after `sqlite:`; `sqlite::memory:` for tests).
 */
export function createDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  /**
   * How long an idle PostgreSQL connection stays open (node-postgres closes it after 10 s). A server
   * keeps its connections for minutes: a new one costs the request that opens it a connect and a
   * fresh backend's first statements (ADR 137).
   */
  idleConnectionMs?: number;
  /**
   * A server's SQLite file is checkpointed on a thread of its own, not inside a request's commit
   * (ADR 130); the function hears of a failed checkpoint. Scripts leave it to SQLite.
   */
  checkpointThread?: (error: string) => void;
}): AppDatabase {
  const url = options.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      ...(options.idleConnectionMs === undefined ? {} : { idleTimeoutMillis: options.idleConnectionMs }),
    });
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
  const onFile = filename !== ":memory:";
  // Only a file has a write-ahead log to checkpoint.
  const onCheckpointError = onFile ? options.checkpointThread : undefined;
  const serving = onCheckpointError !== undefined;
  const { database } = openSqlite(filename, { serving });
  // A second connection for transactions (ADR 109); an in-memory database is one connection's own.
  const transactions = onFile ? openSqlite(filename, { serving }).database : undefined;
  // Started once the file exists in WAL mode.
  const thread = onCheckpointError ? startCheckpointThread(filename, { onError: onCheckpointError }) : null;
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database, transactions, onDestroy: thread?.stop }),
    plugins: [new StripNulPlugin()],
  });
  return { db, dialect: "sqlite", destroy: () => db.destroy() };
}
