// Test data for the soak's judgement and its record: one minute of a quiet run.
import type { Minute } from "./verdict.ts";

export function minute(n: number, overrides: Partial<Minute> = {}): Minute {
  return {
    minute: n,
    rssMb: 500,
    loopP99Ms: 20,
    loopMaxMs: 40,
    requests: 6_000,
    p50Ms: 4,
    p99Ms: 80,
    errors: 0,
    limited: 0,
    late: 0,
    pageCacheBytes: 50 * 1024 * 1024,
    pageCacheMaxBytes: 256 * 1024 * 1024,
    limitKeys: 1_000,
    limitMaxKeys: 50_000,
    ...overrides,
  };
}
