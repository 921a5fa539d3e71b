import { describe, expect, it } from "vitest";
import { formatStatementDrift, readStatements, type StatementSnapshot, statementDrift } from "./statements.ts";

const snap = (rows: Record<string, [string, number, number]>): StatementSnapshot =>
  new Map(Object.entries(rows).map(([id, [query, calls, totalMs]]) => [id, { query, calls, totalMs }]));

describe("which database statements got slower over a soak", () => {
  it("compares each statement's mean time a call early and late, the most time late first", () => {
    const early = [
      snap({ a: ["select views", 100, 100], b: ["select page", 50, 500] }),
      snap({ a: ["select views", 1_100, 1_100], b: ["select page", 1_050, 10_500] }),
    ] as const;
    const late = [
      snap({ a: ["select views", 5_000, 6_000], b: ["select page", 5_000, 50_000], c: ["insert new", 0, 0] }),
      snap({ a: ["select views", 6_000, 9_000], b: ["select page", 6_000, 60_000], c: ["insert new", 10, 20] }),
    ] as const;
    const drift = statementDrift(early, late);
    // a: 1 ms a call early, 3 ms late (3,000 ms over 1,000 calls); b: 10 ms either way; c new.
    expect(drift.map((d) => [d.query, d.earlyMs, d.lateMs, d.lateCalls])).toEqual([
      ["select page", 10, 10, 1_000],
      ["select views", 1, 3, 1_000],
      ["insert new", Number.NaN, 2, 10],
    ]);
    const lines = formatStatementDrift(drift, "5-10 and 25-30");
    expect(lines[0]).toBe("Database statements with the most time in minutes 5-10 and 25-30: mean a call early → late");
    expect(lines[2]).toBe("  1.00 → 3.00 ms (+200%), 1000 calls, 3.0 s: select views");
    expect(lines[3]).toBe("  – → 2.00 ms, 10 calls, 0.0 s: insert new");
  });

  it("answers null, not an error, from a server without pg_stat_statements or none at all", async () => {
    // The shared server of these machines does not load it (the soak's own server does): null. Were
    // it loaded, a database that does not exist has no statements: an empty reading, still no error.
    const shared = await readStatements("postgres://postgres@127.0.0.1:5432/postgres", "no_such_database");
    expect(shared === null || shared.size === 0).toBe(true);
    expect(await readStatements("postgres://postgres@127.0.0.1:1/postgres", "bodima_soak")).toBeNull();
  });
});
