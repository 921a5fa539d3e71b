/**
 * Which of the database's statements got slower over a soak (ADR 124): the soak's own PostgreSQL
 * server loads pg_stat_statements, the soak reads it at four minutes, and compares each statement's
 * mean time a call early in the judged minutes with the same at the end. The database's CPU a request
 * rose 21% over one run; this names the statements that did it.
 */

/** A statement's calls and total execution time so far, by PostgreSQL's query id. */
export type StatementCounts = { query: string; calls: number; totalMs: number };
export type StatementSnapshot = ReadonlyMap<string, StatementCounts>;

/**
 * `read` run on one connection to the server of `adminUrl`, closed after; null when it fails (no
 * extension on a server the soak did not start, or the server is gone).
 */
async function queryServer<T>(adminUrl: string, read: (client: import("pg").Client) => Promise<T>): Promise<T | null> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: adminUrl });
  try {
    await client.connect();
    return await read(client);
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Every statement of `database` that pg_stat_statements has counted, read through `adminUrl`. */
export function readStatements(adminUrl: string, database: string): Promise<StatementSnapshot | null> {
  return queryServer(adminUrl, async (client) => {
    const { rows } = await client.query<{ id: string; query: string; calls: string; total: number }>(
      `select s.queryid::text as id, s.query, s.calls::text as calls, s.total_exec_time as total
         from pg_stat_statements s join pg_database d on d.oid = s.dbid where d.datname = $1`,
      [database],
    );
    return new Map(rows.map((r) => [r.id, { query: r.query, calls: Number(r.calls), totalMs: Number(r.total) }]));
  });
}

/**
 * How many connections the database has been opened since its statistics began (PostgreSQL 14's
 * `pg_stat_database.sessions`), or null. Read at the soak's start and end: a server that keeps its
 * connections opens a few, one that lets them go opens one for most bursts (ADR 137).
 */
export function readSessions(adminUrl: string, database: string): Promise<number | null> {
  return queryServer(adminUrl, async (client) => {
    const { rows } = await client.query<{ n: string }>(
      "select sessions::text as n from pg_stat_database where datname = $1",
      [database],
    );
    return rows.length ? Number(rows[0].n) : null;
  });
}

/** The calls and time of each statement between two snapshots. */
function between(from: StatementSnapshot, to: StatementSnapshot): Map<string, StatementCounts> {
  const spans = new Map<string, StatementCounts>();
  for (const [id, now] of to) {
    const before = from.get(id);
    const calls = now.calls - (before?.calls ?? 0);
    if (calls > 0) spans.set(id, { query: now.query, calls, totalMs: now.totalMs - (before?.totalMs ?? 0) });
  }
  return spans;
}

export type StatementDrift = { query: string; earlyMs: number; lateMs: number; lateCalls: number; lateTotalMs: number };

/**
 * The statements with the most time in the late span, each with its mean time a call early and late
 * (early NaN when it did not run then), most time first.
 */
export function statementDrift(
  early: readonly [StatementSnapshot, StatementSnapshot],
  late: readonly [StatementSnapshot, StatementSnapshot],
  top = 8,
): StatementDrift[] {
  const before = between(...early);
  return [...between(...late)]
    .sort((a, b) => b[1].totalMs - a[1].totalMs)
    .slice(0, top)
    .map(([id, span]) => {
      const then = before.get(id);
      return {
        query: span.query,
        earlyMs: then ? then.totalMs / then.calls : Number.NaN,
        lateMs: span.totalMs / span.calls,
        lateCalls: span.calls,
        lateTotalMs: span.totalMs,
      };
    });
}

/** The drift as lines for the soak's output. */
export function formatStatementDrift(rows: readonly StatementDrift[], spans: string): string[] {
  const ms = (v: number) => (Number.isNaN(v) ? "–" : v < 1 ? v.toFixed(3) : v.toFixed(2));
  return [
    `Database statements with the most time in minutes ${spans}: mean a call early → late`,
    ...rows.map((r) => {
      const change =
        Number.isNaN(r.earlyMs) || r.earlyMs === 0
          ? ""
          : ` (${r.lateMs >= r.earlyMs ? "+" : ""}${(((r.lateMs - r.earlyMs) / r.earlyMs) * 100).toFixed(0)}%)`;
      return `  ${ms(r.earlyMs)} → ${ms(r.lateMs)} ms${change}, ${r.lateCalls} calls, ${(r.lateTotalMs / 1000).toFixed(1)} s: ${r.query.replace(/\s+/g, " ").slice(0, 160)}`;
    }),
  ];
}
