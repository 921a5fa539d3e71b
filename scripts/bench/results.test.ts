import { describe, expect, it } from "vitest";
import { type BenchResults, checkBudgets, harnessProblems, type PhaseResult, percentile, ratios } from "./results.ts";

function phase(requestsPerSecond: number, extra: Partial<PhaseResult> = {}): PhaseResult {
  const requests = requestsPerSecond * 20;
  return {
    connections: 50,
    seconds: 20,
    requests,
    requestsPerSecond,
    p50: 5,
    p99: 20,
    statusCodes: { 200: requests },
    errors: 0,
    ...extra,
  };
}

function results(overrides: Partial<BenchResults> = {}): BenchResults {
  return {
    listings: 100_000,
    database: "SQLite",
    short: false,
    workers: 1,
    stylesheet: { path: "/assets/root-x.css", encoding: "br", bytes: 7_000 },
    phases: {
      bare: phase(10_000),
      static: phase(5_000),
      warmUp: phase(300, { urls: 5_000, requests: 5_000 }),
      hot: phase(2_600, { urls: 5_000 }),
      cold: phase(600, { p99: 200 }),
    },
    shapes: [{ name: "newest first", path: "/browse", requests: 50, p50: 10, p95: 20, statusCodes: { 200: 50 } }],
    ...overrides,
  };
}

describe("percentile", () => {
  it("takes the nearest rank", () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(95);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([1, 2, 3], 0)).toBe(1);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe("ratios and budgets", () => {
  it("compares throughputs with the stylesheet from the app", () => {
    expect(ratios(results().phases)).toEqual({ staticToBare: 0.5, hotToStatic: 0.52, coldToStatic: 0.12 });
  });

  it("passes a run within every budget at 100,000 listings (search shapes are a 1M budget)", () => {
    const checks = checkBudgets(results());
    expect(checks.every((c) => c.pass)).toBe(true);
    expect(checks.map((c) => c.budget)).toEqual([
      "(b) static ≥ 40% of (a) bare",
      "(c) hot ≥ 50.0% of (b) static",
      "(c) hot p99 ≤ 50 ms",
      "(c) hot errors = 0",
      "(c) hot non-2xx = 0",
      "(d) cold ≥ 10.0% of (b) static",
      "(d) cold p99 ≤ 250 ms",
    ]);
  });

  it("fails each budget it is over", () => {
    const slow = results({
      phases: {
        bare: phase(10_000),
        static: phase(3_000),
        warmUp: phase(300),
        hot: phase(1_400, { p99: 51, errors: 2, statusCodes: { 200: 100, 404: 1 } }),
        cold: phase(299, { p99: 251 }),
      },
    });
    expect(
      checkBudgets(slow)
        .filter((c) => !c.pass)
        .map((c) => c.measured),
    ).toEqual(["30.0%", "46.7%", "51 ms", "2", "1", "10.0%", "251 ms"]);
  });

  it("relaxes the ratios at 1,000,000 listings and adds the search shapes", () => {
    const large = results({
      listings: 1_000_000,
      phases: { ...results().phases, hot: phase(2_000), cold: phase(250) },
      shapes: [
        { name: "newest first", path: "/browse", requests: 50, p50: 10, p95: 20, statusCodes: { 200: 50 } },
        {
          name: "common word",
          path: "/browse?search=room",
          requests: 50,
          p50: 40,
          p95: 61.25,
          statusCodes: { 200: 50 },
        },
      ],
    });
    const checks = checkBudgets(large);
    expect(checks.find((c) => c.budget.startsWith("(c) hot ≥"))).toMatchObject({
      budget: "(c) hot ≥ 40.0% of (b) static",
      pass: true,
    });
    expect(checks.find((c) => c.budget.startsWith("(d) cold ≥"))).toMatchObject({
      budget: "(d) cold ≥ 5.0% of (b) static",
      pass: true,
    });
    expect(checks.at(-1)).toEqual({
      budget: "(e) every search shape p95 ≤ 50 ms",
      measured: "slowest: common word 61.3 ms",
      pass: false,
    });
  });
});

describe("harnessProblems", () => {
  it("finds none in a run where every answer was 2xx", () => {
    expect(harnessProblems(results())).toEqual([]);
  });

  it("reports phases without a 2xx, any other status, a short warm-up and failing shapes", () => {
    const broken = results({
      phases: {
        bare: phase(10_000),
        static: phase(0, { requests: 0, statusCodes: {} }),
        warmUp: phase(10, { requests: 200 }),
        hot: phase(2_000, { urls: 5_000, statusCodes: { 200: 10, 500: 2, 404: 1 } }),
        cold: phase(600),
      },
      shapes: [
        { name: "rare word", path: "/browse?search=x", requests: 10, p50: 1, p95: 1, statusCodes: { 200: 9, 502: 1 } },
      ],
    });
    expect(harnessProblems(broken)).toEqual([
      "static: no 2xx response",
      "hot: 1 × 404, 2 × 500",
      "warmUp: 200 requests for 5000 hot URLs",
      "search shape rare word: 1 × 502",
    ]);
    expect(harnessProblems(results({ shapes: [] }))).toEqual(["search shapes: none ran"]);
  });
});
