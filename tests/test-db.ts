import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { type AppDatabase, createDatabase, type DB, type DialectName } from "../app/db/db.server";
import { migrateToLatest } from "../app/db/migrate.server";

/**
 * Runs a database test suite on SQLite always, and on PostgreSQL too when
 * TEST_DATABASE_URL is set. Each suite gets its own fresh database.
 */
export function describeEachDatabase(name: string, suite: (ctx: () => { db: DB; dialect: DialectName }) => void) {
  const targets: DialectName[] = ["sqlite"];
  if (process.env.TEST_DATABASE_URL) targets.push("postgres");
  for (const dialect of targets) {
    describe(`${name} [${dialect}]`, () => {
      let handle: AppDatabase & { drop?: () => Promise<void> };
      beforeAll(async () => {
        handle = await freshDatabase(dialect);
      });
      afterAll(async () => {
        await handle?.destroy();
        await handle?.drop?.();
      });
      suite(() => ({ db: handle.db, dialect }));
    });
  }
}

export async function freshDatabase(dialect: DialectName): Promise<AppDatabase & { drop?: () => Promise<void> }> {
  if (dialect === "sqlite") {
    const handle = createDatabase({ databaseUrl: "sqlite::memory:", dataDir: "" });
    await migrateToLatest(handle.db);
    return handle;
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `bodima_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = createDatabase({ databaseUrl: url.toString(), dataDir: "" });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        // pool.end() can resolve while its sockets are still closing; dropping
        // WITH (FORCE) then kills them and their clients throw. Wait for them.
        for (let attempt = 0; ; attempt++) {
          try {
            await c.query(`drop database if exists ${name}`);
            return;
          } catch (error) {
            if (attempt >= 50) {
              await c.query(`drop database if exists ${name} with (force)`);
              return;
            }
            if ((error as { code?: string }).code !== "55006") throw error; // object in use
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      } finally {
        await c.end();
      }
    },
  };
}
