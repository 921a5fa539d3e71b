import { describe, expect, it } from "vitest";
import type { OverloadResults } from "./overload.ts";
import { checkOverloadBudgets, formatOverload } from "./overload-report.ts";
import type { PhaseResult } from "./results.ts";

const phase = (over: Partial<PhaseResult>): PhaseResult => ({
  connections: 8,
  seconds: 10,
  requests: 1_000,
  requestsPerSecond: 100,
  p50: 50,
  p99: 200,
  statusCodes: { 200: 1_000 },
  errors: 0,
  pageCache: { MISS: 1_000 },
  ...over,
});

const good: OverloadResults = {
  baseline: phase({}),
  burst: phase({
    connections: 400,
    requests: 50_000,
    p99: 1_500,
    statusCodes: { 200: 950, 503: 49_050 },
    pageCache: { MISS: 950, none: 49_050 },
  }),
  cachedProbe: { requests: 100, p50: 5, p99: 40, max: 60, failures: 0, pageCache: { HIT: 100 } },
  single: { before: 20, after: 22 },
  memory: { beforeMb: 500, afterMb: 700 },
  processes: { before: [1, 2, 3], after: [1, 2, 3] },
};
const setting = { database: "SQLite" as const, listings: 100_000, workers: 2, pageCacheMb: 128 };

const failed = (results: OverloadResults) =>
  checkOverloadBudgets(results, setting)
    .filter((b) => !b.pass)
    .map((b) => b.budget);

describe("the overload budgets", () => {
  it("are all met by a crowd answered in time", () => {
    expect(failed(good)).toEqual([]);
    expect(formatOverload(good, checkOverloadBudgets(good, setting), setting)).toContain("| burst | 400 |");
  });

  it("fail on a 500, on a 503 that does not say when to come back, and on a timeout", () => {
    const with500 = { ...good, burst: { ...good.burst, statusCodes: { 200: 950, 500: 1 } } };
    expect(failed(with500)).toEqual(["only 2xx, or 503 with Retry-After"]);
    const bare503 = { ...good, burst: { ...good.burst, statusCodes: { 200: 950, "503 without Retry-After": 3 } } };
    expect(failed(bare503)).toEqual(["only 2xx, or 503 with Retry-After"]);
    const timedOut = { ...good, burst: { ...good.burst, errors: 1 } };
    expect(failed(timedOut)).toEqual(["every request answered (no timeout at 10 s, no reset)"]);
  });

  it("fail when renders drop under 80% of the baseline, a worker restarts or memory stays up", () => {
    const slow = { ...good, burst: { ...good.burst, pageCache: { MISS: 790 } } };
    expect(failed(slow)).toEqual(["pages rendered ≥ 80% of the baseline's"]);
    const restarted = { ...good, processes: { before: [1, 2, 3], after: [1, 2, 4] } };
    expect(failed(restarted)).toEqual(["no worker restarts"]);
    // Two page caches of 128 MB and 150 MB more: 406 MB.
    const grew = { ...good, memory: { beforeMb: 500, afterMb: 907 } };
    expect(failed(grew)).toEqual([`memory 10 s after ≤ start + page caches + 150 MB (406 MB)`]);
  });

  it("show where the memory is when /metrics told it, and no such table when it did not", () => {
    const parts = (heapTotal: number, external: number) => ({
      heapTotal,
      heapUsed: heapTotal / 2,
      external,
      pageCache: 40,
    });
    const told = { ...good, memory: { beforeMb: 500, afterMb: 700, before: parts(100, 60), after: parts(300, 90) } };
    const text = formatOverload(told, checkOverloadBudgets(told, setting), setting);
    expect(text).toContain("| 10 s after | 700 MB | – | 300 MB (150 MB used) | 90 MB | 40 MB | 310 MB |");
    const files = { ...told, memory: { ...told.memory, fileBeforeMb: 50, fileAfterMb: 120 } };
    expect(formatOverload(files, checkOverloadBudgets(files, setting), setting)).toContain(
      "| 10 s after | 700 MB | 120 MB | 300 MB (150 MB used) | 90 MB | 40 MB | 190 MB |",
    );
    expect(formatOverload(good, checkOverloadBudgets(good, setting), setting)).not.toContain("| Memory |");
  });
});
