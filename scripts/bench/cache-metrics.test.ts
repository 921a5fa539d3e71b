import { describe, expect, it } from "vitest";
import { describeCacheCounts, parseCacheCounts } from "./cache-metrics.ts";

const METRICS = `# HELP bodima_page_cache_dropped_total Pages dropped
# TYPE bodima_page_cache_dropped_total counter
bodima_page_cache_dropped_total{reason="evicted"} 0
bodima_page_cache_dropped_total{reason="expired"} 12
bodima_page_cache_dropped_total{reason="invalidated"} 3
bodima_page_cache_dropped_total{reason="stale"} 1
bodima_page_cache_shared_total{outcome="kept"} 2714
bodima_page_cache_shared_total{outcome="refused"} 15
`;

describe("the page caches' counts in /metrics", () => {
  it("reads why pages were dropped and how many shared pages were refused", () => {
    expect(parseCacheCounts(METRICS)).toEqual({ evicted: 0, expired: 12, invalidated: 3, stale: 1, sharedRefused: 15 });
  });

  it("counts 0 for what a lone process does not report", () => {
    expect(parseCacheCounts('bodima_page_cache_dropped_total{reason="expired"} 2\n')).toEqual({
      evicted: 0,
      expired: 2,
      invalidated: 0,
      stale: 0,
      sharedRefused: 0,
    });
  });

  it("says what happened between two readings", () => {
    const before = parseCacheCounts(METRICS);
    const after = { ...before, expired: before.expired + 70, evicted: 2, sharedRefused: before.sharedRefused + 4 };
    expect(describeCacheCounts(before, after)).toBe("pages dropped: 70 expired, 2 evicted; shared pages refused: 4");
    expect(describeCacheCounts(before, before)).toBe("pages dropped: none; shared pages refused: 0");
  });
});
