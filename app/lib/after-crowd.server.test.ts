import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { collectAfterCrowds, GROWTH_BYTES, LOOK_EVERY_MS, QUIET_MS } from "./after-crowd.server";

const MB = 1024 * 1024;

/** A worker whose state the test sets, on a clock the test moves with the timers; its collector empties the heap to 100 MB. */
function worker({ withCollector = true } = {}) {
  const state = { busy: false, idle: true, at: 0, heap: 100 * MB, collected: [] as unknown[] };
  const collector = collectAfterCrowds({
    gc: withCollector
      ? (((options?: unknown) => {
          state.collected.push(options);
          state.heap = 100 * MB;
        }) as NodeJS.GCFunction)
      : undefined,
    isBusy: () => state.busy,
    isIdle: () => state.idle,
    heapBytes: () => state.heap,
    now: () => state.at,
  });
  /** Time passes a look at a time, the clock moving with the timers. */
  const pass = (ms: number) => {
    for (let left = ms; left > 0; left -= LOOK_EVERY_MS) {
      const step = Math.min(LOOK_EVERY_MS, left);
      state.at += step;
      vi.advanceTimersByTime(step);
    }
  };
  /** Busy for `ms` while the heap grows by `growth`, then idle. */
  const crowd = (ms: number, growth = 2 * GROWTH_BYTES) => {
    state.busy = true;
    state.idle = false;
    state.heap += growth;
    pass(ms);
    state.busy = false;
    state.idle = true;
  };
  return { state, collector, pass, crowd };
}

describe("the heap given back when a worker falls quiet after a crowd (ADR 140)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("collects once, the last-resort way, after the crowd has gone and the worker has been idle a while", () => {
    const { state, collector, pass, crowd } = worker();
    crowd(10_000);
    expect(state.collected).toEqual([]);
    pass(QUIET_MS - LOOK_EVERY_MS);
    expect(state.collected).toEqual([]);
    pass(2 * LOOK_EVERY_MS);
    expect(state.collected).toEqual([{ type: "major", execution: "sync", flavor: "last-resort" }]);
    // The quiet goes on: nothing more to give back.
    pass(60_000);
    expect(collector.collections).toBe(1);
    collector.stop();
  });

  it("never collects in a worker that had no crowd, nor while requests are under way", () => {
    const { state, collector, pass } = worker();
    state.heap += 4 * GROWTH_BYTES;
    pass(60_000);
    expect(state.collected).toHaveLength(0);
    state.busy = true;
    state.idle = false;
    pass(1_000);
    // Not busy any more, but not idle either: requests still under way.
    state.busy = false;
    pass(5 * QUIET_MS);
    expect(state.collected).toHaveLength(0);
    collector.stop();
  });

  it("takes a lull inside a crowd for the crowd", () => {
    const { state, collector, pass, crowd } = worker();
    crowd(2_000);
    pass(QUIET_MS - LOOK_EVERY_MS);
    crowd(2_000);
    expect(state.collected).toHaveLength(0);
    pass(QUIET_MS + LOOK_EVERY_MS);
    expect(state.collected).toHaveLength(1);
    collector.stop();
  });

  it("leaves a crowd's garbage to V8 when the heap grew less than GROWTH_BYTES from its smallest", () => {
    const { state, collector, pass, crowd } = worker();
    crowd(2_000, GROWTH_BYTES / 2);
    pass(2 * QUIET_MS);
    expect(state.collected).toHaveLength(0);
    // V8 shrank the heap by itself; growth counts from there.
    state.heap = 80 * MB;
    pass(LOOK_EVERY_MS);
    crowd(2_000, GROWTH_BYTES - 10 * MB);
    pass(2 * QUIET_MS);
    expect(state.collected).toHaveLength(0);
    crowd(2_000, 20 * MB);
    pass(2 * QUIET_MS);
    expect(state.collected).toHaveLength(1);
    collector.stop();
  });

  it("does nothing in a process started without --expose-gc", () => {
    vi.stubGlobal("gc", undefined);
    const { state, collector, pass, crowd } = worker({ withCollector: false });
    crowd(2_000);
    pass(60_000);
    expect(collector.collections).toBe(0);
    expect(state.heap).toBeGreaterThan(100 * MB + GROWTH_BYTES);
    collector.stop();
  });
});
