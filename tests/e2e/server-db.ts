import path from "node:path";
import { DatabaseSync } from "node:sqlite";

/** Runs `run` on the browser-test server's own SQLite file (app/db/db.server.ts: DATA_DIR/bodima.sqlite). */
export function withServerDb<T>(run: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path.join(process.env.E2E_DATA_DIR!, "bodima.sqlite"));
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    return run(db);
  } finally {
    db.close();
  }
}
