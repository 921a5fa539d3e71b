import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { collectAfterCrowds, GROWTH_BYTES, LOOK_EVERY_MS, QUIET_LOAD, QUIET_LOOKS } from "./after-crowd.server";

const QUIET_MS = QUIET_LOOKS * LOOK_EVERY_MS;

const MB = 1024 * 1024;

/** A worker whose load the test sets, looked at as the timers pass; its collector empties the heap to 100 MB. */
function worker({ withCollector = true } = {}) {
  const state = { load: 0, underWay: 0, refused: 0, heap: 100 * MB, collected: [] as unknown[] };
  const collector = collectAfterCrowds({
    refused: () => state.refused,
    gc: withCollector
      ? (((options?: unknown) => {
          state.collected.push(options);
          state.heap = 100 * MB;
        }) as NodeJS.GCFunction)
      : undefined,
    load: () => state.load,
    underWay: () => state.underWay,
    heapBytes: () => state.heap,
  });
  const pass = (ms: number) => vi.advanceTimersByTime(ms);
  /** Crowded for `ms` (busy, and refusing renders every look) while the heap grows by `growth`, then quiet. */
  const crowd = (ms: number, growth = 2 * GROWTH_BYTES) => {
    state.load = 0.9;
    state.heap += growth;
    for (let left = ms; left > 0; left -= LOOK_EVERY_MS) {
      state.refused += 10;
      pass(Math.min(LOOK_EVERY_MS, left));
    }
    state.load = 0;
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

  it("never collects in a worker that had no crowd, nor while it is not quiet", () => {
    const { state, collector, pass, crowd } = worker();
    state.heap += 4 * GROWTH_BYTES;
    state.load = 0.3;
    pass(60_000);
    expect(state.collected).toHaveLength(0);
    crowd(1_000);
    // A worker a third busy (ordinary traffic) is not quiet.
    state.load = 0.3;
    pass(60_000);
    // Nor is a quiet loop with a request under way (a render waiting on the database).
    state.load = QUIET_LOAD;
    state.underWay = 1;
    pass(60_000);
    expect(state.collected).toHaveLength(0);
    state.underWay = 0;
    pass(QUIET_MS);
    expect(state.collected).toHaveLength(1);
    collector.stop();
  });

  it("takes a busy worker that refused nobody for ordinary traffic, not a crowd, however quiet it falls after", () => {
    // ADR 141: the soak at 70% of capacity keeps a worker busy and leaves it lulls; nothing to give back.
    const { state, collector, pass } = worker();
    for (let i = 0; i < 10; i++) {
      state.load = 0.9;
      state.heap += GROWTH_BYTES;
      pass(5_000);
      state.load = 0;
      pass(5_000);
    }
    expect(state.collected).toHaveLength(0);
    collector.stop();
  });

  it("takes a short lull between crowded moments for the crowd", () => {
    const { state, collector, pass, crowd } = worker();
    for (let i = 0; i < 20; i++) {
      crowd(LOOK_EVERY_MS);
      pass(QUIET_MS - LOOK_EVERY_MS);
    }
    expect(state.collected).toHaveLength(0);
    pass(LOOK_EVERY_MS);
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
