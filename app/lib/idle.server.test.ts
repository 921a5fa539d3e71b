import { describe, expect, it } from "vitest";
import {
  BUSY_REQUESTS_PER_SECOND,
  createIdleQueue,
  loadMeter,
  markRequest,
  markRequestEnd,
  markRequestStart,
  requestsUnderWay,
  runAsBackground,
  untilIdle,
  workerIsBusy,
  workerIsIdle,
} from "./idle.server";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the idle queue (ADR 095)", () => {
  it("runs nothing while the worker is busy, then everything in order once it is idle", async () => {
    let idle = false;
    const done: number[] = [];
    const queue = createIdleQueue<number>({ cap: 10, run: (n) => done.push(n), isIdle: () => idle, retryMs: 5 });
    for (const n of [1, 2, 3]) expect(queue.offer(n)).toBe(true);
    await wait(100);
    expect(done).toEqual([]);
    expect(queue.waiting).toBe(3);
    idle = true;
    await queue.settled();
    expect(done).toEqual([1, 2, 3]);
    expect(queue.waiting).toBe(0);
  });

  it("refuses work past its cap instead of queueing it, and takes it again once there is room", async () => {
    let idle = false;
    const done: string[] = [];
    const queue = createIdleQueue<string>({ cap: 2, run: (s) => done.push(s), isIdle: () => idle, retryMs: 5 });
    expect([queue.offer("a"), queue.offer("b"), queue.offer("c")]).toEqual([true, true, false]);
    expect(queue.waiting).toBe(2);
    idle = true;
    await queue.settled();
    expect(queue.offer("c")).toBe(true);
    await queue.settled();
    expect(done).toEqual(["a", "b", "c"]);
  });

  it("stops between items as soon as the worker becomes busy", async () => {
    let idle = true;
    const done: number[] = [];
    const queue = createIdleQueue<number>({
      cap: 10,
      run: (n) => {
        done.push(n);
        // A request comes in while the first item runs.
        idle = false;
      },
      isIdle: () => idle,
      retryMs: 5,
    });
    queue.offer(1);
    queue.offer(2);
    await wait(100);
    expect(done).toEqual([1]);
    idle = true;
    await queue.settled();
    expect(done).toEqual([1, 2]);
  });
});

describe("whether the worker is idle", () => {
  it("is not while a request is under way in Express, and is again once it is answered and the loop is quiet", async () => {
    markRequestStart();
    try {
      expect(await untilIdle({ maxWaitMs: 300 })).toBe(false);
    } finally {
      markRequestEnd();
    }
    expect(await untilIdle({ maxWaitMs: 5_000 })).toBe(true);
  });

  it("gives up waiting after its longest wait, for work that must happen some time (a timed job)", async () => {
    const started = performance.now();
    expect(await untilIdle({ maxWaitMs: 150, retryMs: 20, isIdle: () => false })).toBe(false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(await untilIdle({ maxWaitMs: 150, isIdle: () => true })).toBe(true);
  });

  it("waits for a quiet stretch when asked: a busy moment in it starts the count again", async () => {
    const looks = [true, true, false, true, true, true, true, true];
    let seen = 0;
    const idle = () => looks[Math.min(seen++, looks.length - 1)];
    expect(await untilIdle({ quietMs: 60, retryMs: 20, isIdle: idle })).toBe(true);
    // Idle from the fourth look on: it took at least three more 20 ms looks after that to see 60 ms of quiet.
    expect(seen).toBeGreaterThanOrEqual(7);
  });

  it("is not while the event loop is kept busy, though no request is under way (a stream of cache hits)", async () => {
    expect(await untilIdle({ maxWaitMs: 5_000 })).toBe(true);
    // Turns of 20 ms of work back to back for 400 ms: what a loop answering hit after hit looks like.
    const until = performance.now() + 400;
    let idleSeen = false;
    await new Promise<void>((resolve) => {
      const turn = () => {
        const end = performance.now() + 20;
        while (performance.now() < end);
        if (performance.now() > until - 200) idleSeen ||= workerIsIdle();
        if (performance.now() < until) setImmediate(turn);
        else resolve();
      };
      setImmediate(turn);
    });
    expect(idleSeen).toBe(false);
  });
});

describe("whether visitors keep the worker busy (ADR 113)", () => {
  /** Turns of 20 ms of work back to back for `ms`, looking at the end of each turn; whether any look saw it busy. */
  const keepLoopBusy = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const until = performance.now() + ms;
      let busySeen = false;
      const turn = () => {
        const end = performance.now() + 20;
        while (performance.now() < end);
        // Every turn looks, as every hit of a page waiting for its new view count would.
        const busy = workerIsBusy();
        busySeen ||= busy;
        if (performance.now() < until) setImmediate(turn);
        else resolve(busySeen);
      };
      setImmediate(turn);
    });

  it("is not after a quiet stretch, even on the first look in a while", async () => {
    await wait(250);
    expect(workerIsBusy()).toBe(false);
  });

  it("is while a request is under way in Express", () => {
    markRequestStart();
    try {
      expect(workerIsBusy()).toBe(true);
    } finally {
      markRequestEnd();
    }
  });

  it("is while the event loop answers one request after another, and is not once they stop", async () => {
    await wait(150);
    expect(await keepLoopBusy(400)).toBe(true);
    await wait(250);
    expect(workerIsBusy()).toBe(false);
  });

  it("is while requests come faster than it is told to bear, though each is quick, and is not once they stop", async () => {
    await wait(150);
    expect(workerIsBusy()).toBe(false);
    // Twice the rate, in small batches on a quiet loop: what a crowd looks like to a worker that waits for a core.
    const perBatch = Math.ceil((BUSY_REQUESTS_PER_SECOND * 2) / 50);
    for (let batch = 0; batch < 8; batch += 1) {
      for (let i = 0; i < perBatch; i += 1) markRequest();
      await wait(20);
    }
    expect(workerIsBusy()).toBe(true);
    await wait(250);
    expect(workerIsBusy()).toBe(false);
  });
});

describe("the load over a whole span (ADR 140)", () => {
  const spin = (ms: number) => {
    const end = performance.now() + ms;
    while (performance.now() < end);
  };

  it("is near 1 over a span the loop spent working, near 0 over one it slept, and leaves out background work", async () => {
    const load = loadMeter();
    spin(200);
    expect(load()).toBeGreaterThan(0.8);
    await wait(200);
    expect(load()).toBeLessThan(0.2);
    runAsBackground(() => spin(200));
    expect(load()).toBeLessThan(0.2);
  });

  it("counts a request under way until it is answered", () => {
    expect(requestsUnderWay()).toBe(0);
    markRequestStart();
    expect(requestsUnderWay()).toBe(1);
    markRequestEnd();
    expect(requestsUnderWay()).toBe(0);
  });
});
