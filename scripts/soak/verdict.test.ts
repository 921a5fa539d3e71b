import { describe, expect, it } from "vitest";
import { minute } from "./fixtures.ts";
import {
  formatMinute,
  judge,
  judgedMinutes,
  leastSquaresRise,
  type Minute,
  relativeRise,
  slope,
  type WriteCheck,
} from "./verdict.ts";

const run = (count: number, each: (n: number) => Partial<Minute> = () => ({})) =>
  Array.from({ length: count }, (_, i) => minute(i + 1, each(i + 1)));
const allWritten: WriteCheck[] = [{ kind: "posts", acknowledged: 12, missing: [] }];
const failed = (minutes: Minute[], writes = allWritten, jobs: string[] = []) =>
  judge(minutes, writes, jobs)
    .filter((c) => !c.pass)
    .map((c) => c.name);

describe("the soak's trend", () => {
  it("fits a least-squares line", () => {
    expect(slope([1, 2, 3, 4], [10, 12, 14, 16])).toBeCloseTo(2);
    expect(slope([1, 2, 3], [5, 5, 5])).toBe(0);
    expect(slope([1], [5])).toBe(0);
  });

  it("gives a steady climb as a share of where the line starts", () => {
    // 500 MB rising 10 MB a minute over minutes 6-30: 240 MB on a line that starts at 500.
    const points = Array.from({ length: 25 }, (_, i) => ({ x: i + 6, y: 500 + 10 * i }));
    expect(relativeRise(points)).toBeCloseTo(0.48);
  });

  it("is not led by one minute of a stalled host, however far out", () => {
    // The PostgreSQL soak of 2026-12-01: pages' p99 150 ms, one late minute at 1,061 ms (the host stole CPU).
    const points = Array.from({ length: 25 }, (_, i) => ({ x: i + 6, y: i === 20 ? 1_061 : 150 + (i % 3) * 10 }));
    expect(relativeRise(points)).toBeLessThan(0.1);
    // A least-squares line followed it: shown beside the trend, not judged.
    expect(leastSquaresRise(points)).toBeGreaterThan(0.1);
    // A climb that lasts moves the judged line as much as it moves a least-squares one.
    const climb = Array.from({ length: 25 }, (_, i) => ({ x: i + 6, y: i < 15 ? 150 : 450 }));
    expect(relativeRise(climb)).toBeGreaterThan(1);
    expect(leastSquaresRise(climb)).toBeGreaterThan(1);
  });

  it("is not fooled by one noisy minute", () => {
    const points = Array.from({ length: 25 }, (_, i) => ({ x: i + 6, y: i === 24 ? 600 : 500 }));
    // A last minute 20% up moves a line through 25 points by far less.
    expect(relativeRise(points)).toBeLessThan(0.1);
  });

  it("judges after the first five minutes, or the second half of a short run", () => {
    expect(judgedMinutes(run(30)).map((m) => m.minute)).toEqual(Array.from({ length: 25 }, (_, i) => i + 6));
    expect(judgedMinutes(run(3)).map((m) => m.minute)).toEqual([2, 3]);
  });
});

describe("the soak's verdict", () => {
  it("passes a flat, clean run", () => {
    expect(failed(run(30, (n) => ({ rssMb: 500 + (n % 3) * 5, p99Ms: 80 + (n % 2) * 6 })))).toEqual([]);
  });

  it("fails memory that keeps rising after the settling minutes", () => {
    // Minutes 1-5 climb fast (caches filling: not judged), then 3 MB a minute from 600 MB.
    const minutes = run(30, (n) => ({ rssMb: n <= 5 ? 300 + 60 * n : 600 + 3 * (n - 5) }));
    expect(failed(minutes)).toEqual(["memory flat"]);
    // The same run flat after minute 5 passes: filling caches is not drift.
    expect(failed(run(30, (n) => ({ rssMb: n <= 5 ? 300 + 60 * n : 600 })))).toEqual([]);
  });

  it("judges memory apart from the page caches, which fill to their own bound as fast as the rate lets them", () => {
    const MB = 1024 * 1024;
    // A slow run: the caches grow 8 MB a minute all along, and RSS with them; nothing else grows.
    const filling = (n: number) => ({ rssMb: 900 + 8 * n, pageCacheBytes: 8 * n * MB });
    expect(failed(run(30, filling))).toEqual([]);
    // The same caches, and 4 MB a minute more that is not theirs: drift.
    expect(failed(run(30, (n) => ({ ...filling(n), rssMb: 900 + 12 * n })))).toEqual(["memory flat"]);
  });

  it("fails a p99 that climbs, and ignores noise under the floor", () => {
    expect(failed(run(30, (n) => ({ p99Ms: 80 + 4 * n })))).toEqual(["p99 flat"]);
    expect(failed(run(30, (n) => ({ p99Ms: 5 + n })))).toEqual([]);
  });

  it("judges the pages' p99 when the run has it, not the owners' slow posts at the top of every request's", () => {
    // Pages flat, every request's p99 (owners' posts) wandering up: flat.
    expect(failed(run(30, (n) => ({ pagesP99Ms: 120 + (n % 2) * 5, p99Ms: 400 + 12 * n })))).toEqual([]);
    // Pages climbing: not flat, whatever every request's p99 does.
    expect(failed(run(30, (n) => ({ pagesP99Ms: 120 + 6 * n, p99Ms: 600 })))).toEqual(["p99 flat"]);
  });

  it("fails on errors, 429s, late requests, failed jobs and lost writes, naming them", () => {
    expect(failed(run(10, (n) => ({ errors: n === 7 ? 1 : 0 })))).toEqual(["no errors"]);
    expect(failed(run(10, (n) => ({ limited: n === 7 ? 3 : 0 })))).toEqual(["no rate-limit refusals"]);
    expect(failed(run(10, (n) => ({ late: n === 2 ? 40 : 0 })))).toEqual(["kept up with the rate"]);
    expect(failed(run(10), allWritten, ["send-mail exited 1"])).toEqual(["jobs ran"]);
    const lost = [{ kind: "reports", acknowledged: 40, missing: ["Soak report soak1a"] }];
    const checks = judge(run(10), lost, []);
    expect(checks.find((c) => c.name === "no lost writes")).toMatchObject({
      pass: false,
      detail: expect.stringContaining("Soak report soak1a"),
    });
  });

  it("fails a page cache or a rate-limit store over its bound, and figures /metrics did not give", () => {
    expect(failed(run(10, (n) => ({ pageCacheBytes: n === 9 ? 300 * 1024 * 1024 : 1 })))).toEqual([
      "page caches within bounds",
    ]);
    expect(failed(run(10, (n) => ({ limitKeys: n === 9 ? 50_001 : 10 })))).toEqual(["rate-limit stores within bounds"]);
    // At its bound a limit counts new keys in a fixed-size sketch (ADR 102): bounded, and nobody refused for it.
    expect(failed(run(10, (n) => ({ limitKeys: n === 9 ? 50_000 : 10, limitOverflows: n === 9 ? 7 : 0 })))).toEqual([]);
    expect(failed(run(10, () => ({ pageCacheBytes: null, limitKeys: null })))).toEqual([
      "page caches within bounds",
      "rate-limit stores within bounds",
    ]);
  });
});

it("prints each minute with the primary's share of memory and the workers' heap, to tell what grows", () => {
  const line = formatMinute(minute(7, { rssMb: 1_798.4, primaryRssMb: 212.2, heapUsedMb: 431.6 }));
  expect(line).toContain("min   7 | rss 1798 MB (primary 212) | heap 432 MB | loop p99 20.0 max 40.0 ms");
  // A minute whose /metrics did not answer says so rather than print a made-up heap.
  expect(formatMinute(minute(8, { heapUsedMb: null }))).toContain("| rss 500 MB | heap - MB |");
});

it("says beside a drifting p99 whether the hot pages (cache hits) or the cold ones (renders) drifted", () => {
  // Renders hold their time; the hits' p99 doubles: the drift is in serving hits, not in rendering.
  const minutes = run(30, (n) => ({ pagesP99Ms: 100 + 10 * n, hotP99Ms: 50 + (50 * (n - 6)) / 24, coldP99Ms: 200 }));
  const p99 = judge(minutes, allWritten, []).find((c) => c.name === "p99 flat");
  expect(p99?.detail).toContain("; trends: hot pages' p99 +100.0%, cold pages' p99 +0.0%");
  expect(formatMinute(minute(9, { pagesP99Ms: 120.25, hotP99Ms: 61.04, coldP99Ms: 180 }))).toContain(
    "| pages p99 120.3 ms (hot 61.0, cold 180.0) |",
  );
  // A minute without them (older records) shows the pages' p99 alone.
  expect(formatMinute(minute(9, { pagesP99Ms: 120.25 }))).toContain("| pages p99 120.3 ms |");
});

it("says beside a drifting p99 whether the server's work a request grew or the host slowed", () => {
  // The server's CPU a request doubles over minutes 6-30 while the probe's fixed work takes as long: the server drifts.
  const minutes = run(30, (n) => ({
    pagesP99Ms: 100 + 10 * n,
    serverCpuMsPerRequest: 2 + (2 * (n - 6)) / 24,
    databaseCpuMsPerRequest: 1,
    probeCpuMs: 40,
  }));
  const p99 = judge(minutes, allWritten, []).find((c) => c.name === "p99 flat");
  expect(p99?.pass).toBe(false);
  expect(p99?.detail).toContain(
    "; trends: server CPU a request +100.0%, database CPU a request +0.0%, host probe's CPU +0.0%",
  );
  // A run that did not measure them (older records, SQLite has no database apart) says nothing of them.
  expect(judge(run(30), allWritten, []).find((c) => c.name === "p99 flat")?.detail).not.toContain("trends");
  expect(formatMinute(minute(9, { serverCpuMsPerRequest: 3.1, probeCpuMs: 41, steal: 0.005 }))).toContain(
    "| cpu/req 3.10 ms | probe 41.0 ms steal 0.5%",
  );
});
