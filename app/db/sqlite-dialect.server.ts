import { CompiledQuery, type DatabaseConnection, type Driver, SqliteDialect } from "kysely";

/**
 * Kysely's SQLite dialect, except that a transaction takes the write lock when it
 * begins (BEGIN IMMEDIATE) instead of at its first write. A deferred transaction
 * that reads and then writes fails at once with "database is locked" when another
 * process (the server beside a command such as `npm run user:role` or
 * `npm run job`) wrote in between; busy_timeout cannot help it, because its
 * snapshot is stale. Taken at the start, the lock is waited for (busy_timeout)
 * like any other. Our transactions exist to write, so nothing is lost.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw("begin immediate"));
    };
    return driver;
  }
}
