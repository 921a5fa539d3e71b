import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { createWindow, fullestLimit, groupPids, metricValue, residentMb } from "./sampler.ts";

const METRICS = `# HELP bodima_page_cache_bytes Bytes of pages held in the page caches
# TYPE bodima_page_cache_bytes gauge
bodima_page_cache_bytes 5242880
bodima_page_cache_bytes_total 1
bodima_rate_limit_keys{limit="viewVisitor"} 1200
bodima_rate_limit_keys{limit="loginIp"} 3
bodima_process_nodejs_eventloop_lag_p99_seconds 0.0123
`;

describe("the soak's readings", () => {
  it("reads a gauge from /metrics, the largest of a labelled one, and null for one that is missing", () => {
    expect(metricValue(METRICS, "bodima_page_cache_bytes")).toBe(5_242_880);
    expect(metricValue(METRICS, "bodima_rate_limit_keys")).toBe(1_200);
    expect(metricValue(METRICS, "bodima_process_nodejs_eventloop_lag_p99_seconds")).toBeCloseTo(0.0123);
    expect(metricValue(METRICS, "bodima_rate_limit_max_keys")).toBeNull();
    expect(metricValue("", "bodima_page_cache_bytes")).toBeNull();
    expect(fullestLimit(METRICS)).toBe("viewVisitor");
    expect(fullestLimit("")).toBeNull();
  });

  it("finds this process in its process group and reads its resident memory", () => {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    const pgid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
    expect(groupPids(pgid)).toContain(process.pid);
    expect(residentMb([process.pid])).toBeGreaterThan(10);
    expect(residentMb([2 ** 22 + 7])).toBe(0);
  });

  it("counts a minute's answers: errors apart from 429s, and starts again after each take", () => {
    const window = createWindow();
    for (let i = 1; i <= 100; i++) window.add("hot", i, 200, false);
    window.add("save", 500, 429, false);
    window.add("cold", 10_000, 0, true);
    window.late();
    expect(window.take()).toMatchObject({
      requests: 102,
      p50Ms: 51,
      errors: 1,
      limited: 1,
      late: 1,
      errorStatuses: ["cold no answer ×1"],
    });
    expect(window.take()).toMatchObject({ requests: 0, errors: 0, limited: 0, late: 0 });
  });
});
