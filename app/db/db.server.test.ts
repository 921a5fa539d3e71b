import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../../tests/postgres-database";
import { createDatabase } from "./db.server";

/** The connections PostgreSQL has open to `database`, idle or not. */
async function connectionsTo(admin: ReturnType<typeof createDatabase>["db"], database: string): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from pg_stat_activity where datname = ${database}`.execute(admin);
  return rows[0].n;
}

describe.runIf(process.env.TEST_DATABASE_URL)("a PostgreSQL pool's idle connections (ADR 137)", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A pool on a fresh database that keeps idle connections `idleConnectionMs`, after one query. */
  async function usedPool(idleConnectionMs: number) {
    const target = await createPostgresDatabase("bodima_pool");
    const app = createDatabase({ databaseUrl: target.url, dataDir: "", idleConnectionMs });
    const admin = createDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: "" });
    cleanups.push(target.drop, admin.destroy, app.destroy);
    await sql`select 1`.execute(app.db);
    const name = new URL(target.url).pathname.slice(1);
    return () => connectionsTo(admin.db, name);
  }

  it("keeps an idle connection open for as long as it is told", async () => {
    const open = await usedPool(60_000);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await open()).toBe(1);
  });

  it("closes an idle connection once that time has passed", async () => {
    const open = await usedPool(100);
    await expect.poll(open, { timeout: 5_000, interval: 100 }).toBe(0);
  });
});
