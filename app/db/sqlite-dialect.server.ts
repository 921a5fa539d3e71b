import { CompiledQuery, type DatabaseConnection, type Driver, SqliteDialect } from "kysely";

/** SQLite's "database is locked": another process held the write lock for longer than busy_timeout. */
export function isSqliteBusy(error: unknown): boolean {
  return (error as { errcode?: number } | null)?.errcode === 5;
}

/** How long a statement keeps retrying on SQLITE_BUSY, on top of busy_timeout's own wait. */
export const BUSY_RETRY_MS = 20_000;

/**
 * Runs `attempt` again while SQLite says the database is locked, waiting a
 * little longer each time (without blocking the event loop, unlike
 * busy_timeout), for at most `budgetMs`. A statement refused with SQLITE_BUSY
 * changed nothing, so trying it again is safe.
 */
export async function retryWhileBusy<T>(attempt: () => Promise<T>, budgetMs = BUSY_RETRY_MS): Promise<T> {
  const giveUpAt = Date.now() + budgetMs;
  for (let round = 1; ; round++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isSqliteBusy(error) || Date.now() >= giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(25 * round, 250)));
    }
  }
}

/**
 * Kysely's SQLite dialect, except that:
 * - a transaction takes the write lock when it begins (BEGIN IMMEDIATE) instead of at its first
 *   write. A deferred transaction that reads and then writes fails at once with "database is
 *   locked" when another process (a second worker, or a command such as `npm run job`) wrote in
 *   between; busy_timeout cannot help it, because its snapshot is stale. Taken at the start, the
 *   lock is waited for like any other. Our transactions exist to write, so nothing is lost;
 * - a statement or BEGIN refused with SQLITE_BUSY (another process held the lock past
 *   busy_timeout) is tried again for up to 20 s (ADR 034: several workers write one file).
 *   Statements inside a transaction hold the lock already and are not retried on their own.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    const acquire = driver.acquireConnection.bind(driver);
    let inTransaction = false;
    // Kysely's SQLite driver hands out one connection again and again: wrap it once.
    const wrapped = new WeakSet<DatabaseConnection>();
    driver.acquireConnection = async () => {
      const connection = await acquire();
      if (!wrapped.has(connection)) {
        wrapped.add(connection);
        const execute = connection.executeQuery.bind(connection);
        connection.executeQuery = ((query: CompiledQuery) =>
          inTransaction ? execute(query) : retryWhileBusy(() => execute(query))) as typeof connection.executeQuery;
      }
      return connection;
    };
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw("begin immediate"));
      inTransaction = true;
    };
    const commit = driver.commitTransaction.bind(driver);
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.commitTransaction = async (connection) => {
      inTransaction = false;
      await commit(connection);
    };
    driver.rollbackTransaction = async (connection) => {
      inTransaction = false;
      await rollback(connection);
    };
    return driver;
  }
}
