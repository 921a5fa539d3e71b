import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type QueryResult,
  SqliteAdapter,
  type SqliteDatabase,
  SqliteDialect,
  SqliteDriver,
} from "kysely";

/** SQLite's "database is locked": another process held the write lock for longer than busy_timeout. */
export function isSqliteBusy(error: unknown): boolean {
  return (error as { errcode?: number } | null)?.errcode === 5;
}

/** How long a statement keeps retrying on SQLITE_BUSY, on top of busy_timeout's own wait. */
export const BUSY_RETRY_MS = 20_000;

/** The longest wait between two tries for the write lock (ms). */
export const BUSY_RETRY_MAX_MS = 64;

/**
 * How long to wait before try `round` + 1 for a lock another process holds (ADR 133): from half a
 * millisecond, doubling to BUSY_RETRY_MAX_MS, each wait between half and all of its step, so that
 * two waiting processes do not try again in step. Another worker's write holds the lock for a
 * millisecond or two; waiting 10 ms at first (as before) made every collision cost ten times that.
 */
export function busyRetryDelay(round: number, random: () => number = Math.random): number {
  return Math.min(2 ** (round - 1), BUSY_RETRY_MAX_MS) * (0.5 + random() / 2);
}

/**
 * Runs `attempt` again while SQLite says the database is locked, waiting a
 * little longer each time (busyRetryDelay; without blocking the event loop,
 * unlike busy_timeout), for at most `budgetMs`. A statement refused with SQLITE_BUSY
 * changed nothing, so trying it again is safe.
 */
export async function retryWhileBusy<T>(attempt: () => Promise<T>, budgetMs = BUSY_RETRY_MS): Promise<T> {
  const giveUpAt = Date.now() + budgetMs;
  for (let round = 1; ; round++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isSqliteBusy(error) || Date.now() >= giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, busyRetryDelay(round)));
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
 *   Statements inside a transaction hold the lock already and are not retried on their own;
 * - given a second connection to the same file (`transactions`), transactions run on it, one at a
 *   time, and every other statement on the first, at any time (ADR 109). Kysely otherwise lets one
 *   operation at a time use SQLite's one connection, so a transaction waiting for another
 *   process's write lock held up every page this process was rendering.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #database: SqliteDatabase;
  readonly #transactions?: SqliteDatabase;
  readonly #onDestroy?: () => Promise<void>;

  /** `onDestroy` runs once both connections are closed (the checkpoint thread's stop: ADR 130). */
  constructor(config: { database: SqliteDatabase; transactions?: SqliteDatabase; onDestroy?: () => Promise<void> }) {
    super({ database: config.database });
    this.#database = config.database;
    this.#transactions = config.transactions;
    this.#onDestroy = config.onDestroy;
  }

  override createAdapter(): DialectAdapter {
    return this.#transactions ? new ManyConnectionsSqliteAdapter() : super.createAdapter();
  }

  override createDriver(): Driver {
    if (this.#transactions) return new SplitSqliteDriver(this.#database, this.#transactions, this.#onDestroy);
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

/** Lets Kysely hand out connections without its one-at-a-time lock: SplitSqliteDriver keeps transactions apart itself. */
class ManyConnectionsSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

/**
 * What Kysely gets for each query or transaction: statements go to the shared connection, or to
 * the transactions' connection from BEGIN to COMMIT or ROLLBACK.
 */
class SplitConnection implements DatabaseConnection {
  inTransaction = false;
  readonly shared: DatabaseConnection;
  readonly transactions: DatabaseConnection;

  constructor(shared: DatabaseConnection, transactions: DatabaseConnection) {
    this.shared = shared;
    this.transactions = transactions;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction) return this.transactions.executeQuery<R>(query);
    return retryWhileBusy(() => this.shared.executeQuery<R>(query));
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    return (this.inTransaction ? this.transactions : this.shared).streamQuery<R>(query, chunkSize);
  }
}

/** Two connections to one file: statements on their own share one; transactions take turns on the other. */
class SplitSqliteDriver extends SqliteDriver {
  readonly #transactionsDriver: SqliteDriver;
  #shared?: DatabaseConnection;
  #transactions?: DatabaseConnection;
  /** Settles when the transaction under way (if any) has ended: the next one begins after it. */
  #turn: Promise<void> = Promise.resolve();
  #endTurn: (() => void) | null = null;
  readonly #onDestroy?: () => Promise<void>;

  constructor(database: SqliteDatabase, transactions: SqliteDatabase, onDestroy?: () => Promise<void>) {
    super({ database });
    this.#transactionsDriver = new SqliteDriver({ database: transactions });
    this.#onDestroy = onDestroy;
  }

  override async init(): Promise<void> {
    await super.init();
    await this.#transactionsDriver.init();
    this.#shared = await super.acquireConnection();
    this.#transactions = await this.#transactionsDriver.acquireConnection();
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    return new SplitConnection(this.#shared as DatabaseConnection, this.#transactions as DatabaseConnection);
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    for (;;) {
      const turn = this.#turn;
      await turn;
      if (this.#turn === turn) break;
    }
    this.#turn = new Promise<void>((resolve) => {
      this.#endTurn = resolve;
    });
    try {
      await retryWhileBusy(() =>
        (this.#transactions as DatabaseConnection).executeQuery(CompiledQuery.raw("begin immediate")),
      );
      (connection as SplitConnection).inTransaction = true;
    } catch (error) {
      this.#passTurn();
      throw error;
    }
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#end(connection, "commit");
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#end(connection, "rollback");
  }

  override async destroy(): Promise<void> {
    await super.destroy();
    await this.#transactionsDriver.destroy();
    await this.#onDestroy?.();
  }

  async #end(connection: DatabaseConnection, how: "commit" | "rollback"): Promise<void> {
    const transactions = this.#transactions as DatabaseConnection;
    try {
      await transactions.executeQuery(CompiledQuery.raw(how));
    } catch (error) {
      // A COMMIT refused leaves the transaction open: end it, so the next one can begin.
      if (how === "commit") await transactions.executeQuery(CompiledQuery.raw("rollback")).catch(() => undefined);
      throw error;
    } finally {
      (connection as SplitConnection).inTransaction = false;
      this.#passTurn();
    }
  }

  #passTurn(): void {
    const end = this.#endTurn;
    this.#endTurn = null;
    end?.();
  }
}
