import fs from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { test } from "@playwright/test";
import { createDatabase, type DB } from "../../app/db/db.server";

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

/** The file in which tests/e2e-postgres-server.ts leaves the URL of its fresh database (its name is random). */
const DATABASE_URL_FILE = "database-url";

/**
 * The data folder of the server the running test's project talks to (playwright.config.ts): the
 * SQLite server's E2E_DATA_DIR, or the "postgres" project's server's, beside it.
 */
function serverDataDir(): string {
  const dataDir = process.env.E2E_DATA_DIR!;
  return test.info().project.name === "postgres" ? `${dataDir}-pg` : dataDir;
}

/** The secret that server signs sessions with (app/security/secrets.server.ts: DATA_DIR/secrets.json). */
export function serverSessionSecret(): string {
  const file = path.join(serverDataDir(), "secrets.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { sessionSecret: string }).sessionSecret;
}

/** Runs `run` on the database of the server the running test's project talks to, SQLite or PostgreSQL. */
export async function withProjectDatabase<T>(run: (db: DB) => Promise<T>): Promise<T> {
  const dataDir = serverDataDir();
  const urlFile = path.join(dataDir, DATABASE_URL_FILE);
  const databaseUrl = fs.existsSync(urlFile) ? fs.readFileSync(urlFile, "utf8").trim() : undefined;
  const { db, destroy } = createDatabase({ databaseUrl, dataDir, poolSize: 1 });
  try {
    return await run(db);
  } finally {
    await destroy();
  }
}
