import { expect, it } from "vitest";
import type { RunContext } from "../bench/record.ts";
import { minute } from "./fixtures.ts";
import { formatSoakRecord, type SoakRun } from "./record.ts";
import type { Minute } from "./verdict.ts";

/** A busier minute than the fixture's quiet one, with every column set. */
const busy = (n: number, extra: Partial<Minute> = {}): Minute =>
  minute(n, {
    rssMb: 1_300 + n,
    loopP99Ms: 40,
    loopMaxMs: 210.5,
    requests: 5_020,
    p50Ms: 18.4,
    p99Ms: 606,
    pagesP99Ms: 120.25,
    pageCacheBytes: 100 * 1024 * 1024,
    limitKeys: 10_268,
    fullestLimit: "viewVisitor",
    ...extra,
  });

const run: SoakRun = {
  database: "SQLite",
  listings: 20_000,
  workers: 2,
  minutesAsked: 2,
  steps: [
    { rate: 20, seconds: 15, p99Ms: 174.2, errors: 0 },
    { rate: 25, seconds: 15, p99Ms: 1_945, errors: 260 },
    { rate: 20, seconds: 60, p99Ms: 212.4, errors: 0 },
  ],
  capacity: 20,
  rate: 14,
  minutes: [busy(1), busy(2, { errors: 3, pageCacheBytes: null })],
  checks: [
    { name: "no errors", pass: false, detail: "3 of 10040 requests" },
    { name: "memory flat", pass: true, detail: "trend +1.0% | as said" },
  ],
  byKind: [
    ["hot", 6_000],
    ["post", 12],
  ],
  views: 1_234,
};

const context: RunContext = {
  date: new Date("2026-11-29T14:42:10Z"),
  commit: { hash: "abc1234", dirty: false },
  machine: { cores: 2, cpuModel: "AMD EPYC" },
  args: ["--minutes", "2", "--record"],
};

it("writes a soak as a dated section: how to repeat it, the capacity, every minute and every check", () => {
  const text = formatSoakRecord(run, context);
  expect(text.split("\n").slice(0, 7)).toEqual([
    "### 2026-11-29 14:42 UTC: Soak: SQLite, 20,000 listings, 2 workers, 2 minutes: failed",
    "",
    "- Command: `npm run soak -- --minutes 2 --record`",
    "- Commit: `abc1234`",
    "- Machine: 2 cores, AMD EPYC",
    "- Capacity (open loop, ADRs 103, 132 and 136): 20/s: pages' p99 174 ms; 25/s: pages' p99 1,945 ms, 260 errors; 20/s held 60 s: pages' p99 212 ms. Capacity 20 actions/s; soaked at 14/s",
    "- Answered by kind: hot 6,000, post 12; views counted 1,234",
  ]);
  expect(text).toContain(
    "| 1 | 1,301 MB | 1,201 MB | 40.0 / 210.5 ms | 5,020 | 18.4 / 606.0 ms | 120.3 ms | 0 | 0 | 0 | 100.0 MB | 10,268 (viewVisitor) |",
  );
  // A minute whose /metrics said nothing of the caches shows a dash, not a made-up figure.
  expect(text).toContain("| 2 | 1,302 MB | – | 40.0 / 210.5 ms | 5,020 | 18.4 / 606.0 ms | 120.3 ms | 3 | 0 | 0 | – |");
  expect(text).toContain("| no errors | **not met** | 3 of 10040 requests |");
  // The hot pages' p99 (hits) and the cold ones' (renders) beside the pages' own, when measured.
  const split = formatSoakRecord({ ...run, minutes: [busy(5, { hotP99Ms: 40.04, coldP99Ms: 250 })] }, context);
  expect(split).toContain("| Pages p99 (hot / cold) |");
  expect(split).toContain("| 18.4 / 606.0 ms | 120.3 ms (40.0 / 250.0) | 0 |");
  // A pipe in a check's words would split the table's row.
  expect(text).toContain("| memory flat | met | trend +1.0% \\| as said |");
  expect(text.endsWith("|\n")).toBe(true);
});

it("shows where each minute's time went: CPU a request of the server and the database, the host's probe", () => {
  const measured = busy(3, { serverCpuMsPerRequest: 3.1, databaseCpuMsPerRequest: 1.2, probeCpuMs: 41, steal: 0.005 });
  const text = formatSoakRecord({ ...run, minutes: [measured, busy(4, { serverCpuMsPerRequest: 2.5 })] }, context);
  expect(text).toContain("| CPU a request (server + database) | Host probe / steal |");
  expect(text).toContain("| 10,268 (viewVisitor) | 3.10 + 1.20 ms | 41.0 ms / 0.5% |");
  // SQLite's work is the server's own, and a minute without a probe says so with a dash.
  expect(text).toContain("| 10,268 (viewVisitor) | 2.50 ms | – |");
});

it("says when the rate was given rather than measured", () => {
  const text = formatSoakRecord({ ...run, steps: [], capacity: null, rate: 83 }, { ...context, commit: null });
  expect(text).toContain("- Capacity (open loop, ADRs 103, 132 and 136): rate given: 83 actions/s");
  expect(text).toContain("- Commit: unknown (not a git clone)");
});

it("names the PostgreSQL server and its autovacuum, which decide whether dead rows pile up", () => {
  const server = "PostgreSQL 15.20, autovacuum on: the soak's own server with the defaults";
  const text = formatSoakRecord({ ...run, database: "PostgreSQL", server }, context);
  expect(text).toContain(`- Machine: 2 cores, AMD EPYC\n- Database server: ${server}\n- Capacity`);
  expect(formatSoakRecord(run, context)).not.toContain("Database server");
});
