import { describe, expect, it } from "vitest";
import { type Admission, createRenderGate, type RenderGate, type RenderGateOptions } from "./render-gate";

/** Counts turns of the event loop: a setImmediate that schedules itself runs once per turn. */
function loopTurns() {
  let turns = 0;
  let stopped = false;
  const tick = () => {
    turns += 1;
    if (!stopped) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get now() {
      return turns;
    },
    stop() {
      stopped = true;
    },
  };
}

const roomy: RenderGateOptions = { slots: 100, budgetMs: 1_000 };

function admitted(admission: Admission) {
  if (!admission.ok) throw new Error(`refused: ${admission.reason}`);
  return admission;
}

/** A gate with a clock the test moves. */
function clocked(options: Partial<RenderGateOptions> = {}) {
  let now = 0;
  // Refusals on the prediction alone unless a test says otherwise (slowQueueMs has its own test).
  const gate = createRenderGate({ ...roomy, slowQueueMs: 0, minQueue: 0, now: () => now, ...options });
  return {
    gate,
    advance(ms: number) {
      now += ms;
    },
  };
}

/**
 * Turns one visitor away on arrival (a crowd waiting over the budget at 200 ms a render), then lets
 * the crowd through: late refusal applies only after such a refusal (ADR 141).
 */
async function turnAwayAtTheDoor(gate: RenderGate, minQueue = 0) {
  const holder = admitted(await gate.enter("door-holder", "public"));
  const crowd = Array.from({ length: Math.max(minQueue, 5) }, (_, i) => gate.enter(`door-${i}`, "public"));
  expect(await gate.enter("door-turned-away", "public")).toMatchObject({ ok: false, reason: "busy" });
  holder.release();
  for (const waiter of crowd) admitted(await waiter).release();
}

describe("render gate: turns", () => {
  it("serves callers in the order they asked", async () => {
    const gate = createRenderGate(roomy);
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4].map((n) => gate.enter("net", "public").then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3, 4]);
  });

  it("lets one caller go per turn of the event loop, so the loop gets back to its sockets in between", async () => {
    const gate = createRenderGate(roomy);
    const loop = loopTurns();
    const seen: number[] = [];
    await Promise.all(Array.from({ length: 5 }, () => gate.enter("net", "public").then(() => seen.push(loop.now))));
    loop.stop();
    // Five callers asking in the same turn go in five different turns.
    expect(new Set(seen).size).toBe(5);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it("never lets a caller go in the turn it asked in, even when nobody else waits", async () => {
    const gate = createRenderGate(roomy);
    const loop = loopTurns();
    const asked = loop.now;
    await gate.enter("net", "public");
    const went = loop.now;
    loop.stop();
    expect(went).toBeGreaterThan(asked);
    expect(gate.waiting).toBe(0);
  });
});

describe("render gate: slots and lanes", () => {
  it("lets no more renders run at once than it has slots; the next starts when one ends", async () => {
    const gate = createRenderGate({ ...roomy, slots: 2 });
    const first = admitted(await gate.enter("a", "public"));
    admitted(await gate.enter("b", "public"));
    let thirdStarted = false;
    const third = gate.enter("c", "public").then((admission) => {
      thirdStarted = true;
      return admission;
    });
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(thirdStarted).toBe(false);
    expect(gate.running).toBe(2);
    first.release();
    admitted(await third);
    expect(gate.running).toBe(2);
  });

  it("starts a signed-in person's request before the public ones waiting ahead of it", async () => {
    const gate = createRenderGate({ ...roomy, slots: 1 });
    const running = admitted(await gate.enter("crowd", "public"));
    const order: string[] = [];
    const publicOnes = [1, 2, 3].map((n) =>
      gate.enter("crowd", "public").then((a) => {
        order.push(`public ${n}`);
        admitted(a).release();
      }),
    );
    const owner = gate.enter("home", "priority").then((a) => {
      order.push("owner");
      admitted(a).release();
    });
    running.release();
    await Promise.all([...publicOnes, owner]);
    expect(order[0]).toBe("owner");
  });

  it("a release called twice frees one slot only", async () => {
    const gate = createRenderGate({ ...roomy, slots: 1 });
    const a = admitted(await gate.enter("n", "public"));
    a.release();
    a.release();
    expect(gate.running).toBe(0);
    admitted(await gate.enter("n", "public"));
    expect(gate.running).toBe(1);
  });
});

describe("render gate: overload", () => {
  it("refuses at once a request that would wait longer than the budget, with a Retry-After", async () => {
    // 50 ms a render and one slot: a second's budget holds the render under way and 19 waiting; the 20th waits a second.
    const { gate } = clocked({ slots: 1, initialIntervalMs: 50 });
    admitted(await gate.enter("net-0", "public"));
    const waiting = Array.from({ length: 20 }, (_, i) => gate.enter(`net-${i + 1}`, "public"));
    const refused = await gate.enter("late", "public");
    expect(refused).toMatchObject({ ok: false, reason: "busy" });
    if (!refused.ok) expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(2);
    expect(gate.waiting).toBe(20);
    void waiting;
  });

  it("still admits a signed-in person's request while the public lane is full", async () => {
    const { gate } = clocked({ slots: 1, initialIntervalMs: 50 });
    admitted(await gate.enter("net-0", "public"));
    for (let i = 0; i < 20; i++) void gate.enter(`net-${i + 1}`, "public");
    expect(await gate.enter("late", "public")).toMatchObject({ ok: false });
    // The priority lane is empty: its wait is the render under way, not the crowd.
    const owner = gate.enter("home", "priority");
    expect(gate.waiting).toBe(21);
    void owner;
  });

  it("lets one network fill the queue while nobody else waits, but a visitor from another network takes its newest place", async () => {
    const { gate } = clocked({ slots: 1, initialIntervalMs: 50 });
    admitted(await gate.enter("bot", "public"));
    const bot: Promise<Admission>[] = [];
    for (let i = 0; i < 20; i++) bot.push(gate.enter("bot", "public"));
    // A second's budget at 50 ms a render: the bot has the whole queue, and is refused past it.
    expect(await gate.enter("bot", "public")).toMatchObject({ ok: false, reason: "busy" });
    expect(gate.waiting).toBe(20);
    // A student on another network gets in; the bot's newest request is told to come back instead.
    let studentAnswered = false;
    void gate.enter("student", "public").then(() => {
      studentAnswered = true;
    });
    expect(await bot[19]).toMatchObject({ ok: false, reason: "network" });
    expect(gate.waiting).toBe(20);
    expect(studentAnswered).toBe(false);
    // Two networks with one waiting each are even: a third visitor is refused rather than take a place.
    const { gate: even } = clocked({ slots: 1, initialIntervalMs: 600 });
    admitted(await even.enter("a", "public"));
    void even.enter("b", "public");
    expect(await even.enter("c", "public")).toMatchObject({ ok: false, reason: "busy" });
  });

  it("refuses, when its turn comes, a request that waited past the budget all the same", async () => {
    const { gate, advance } = clocked({ slots: 1, initialIntervalMs: 200 });
    await turnAwayAtTheDoor(gate);
    const first = admitted(await gate.enter("a", "public"));
    const second = gate.enter("b", "public");
    advance(1_100);
    first.release();
    expect(await second).toMatchObject({ ok: false, reason: "late" });
    expect(gate.running).toBe(0);
  });

  it("refuses late in a crowd half the size that refusing on arrival needs, and waits for a slow render below it", async () => {
    // ADR 139: with minQueue 8, four waiting is a crowd for the late rule; three is not.
    const crowd = async (others: number) => {
      const { gate, advance } = clocked({ slots: 1, initialIntervalMs: 200, minQueue: 8 });
      await turnAwayAtTheDoor(gate, 8);
      const first = admitted(await gate.enter("a", "public"));
      const oldest = gate.enter("b", "public");
      for (let i = 0; i < others; i++) void gate.enter(`n-${i}`, "public");
      advance(1_100);
      first.release();
      return oldest;
    };
    expect(await crowd(4)).toMatchObject({ ok: false, reason: "late" });
    expect(await crowd(3)).toMatchObject({ ok: true });
  });

  it("answers a request that waited past the budget late, not with 503, unless a crowd was turned away lately", async () => {
    // ADR 141: a worker that stalls a second at ordinary traffic gathers a queue; nobody was refused
    // on arrival, so its requests are rendered late. A crowd turned away over five budgets ago is over.
    const stalled = async (turnedAwayMsAgo?: number) => {
      const { gate, advance } = clocked({ slots: 1, initialIntervalMs: 200, minQueue: 8 });
      if (turnedAwayMsAgo !== undefined) {
        await turnAwayAtTheDoor(gate, 8);
        advance(turnedAwayMsAgo);
      }
      const first = admitted(await gate.enter("a", "public"));
      const oldest = gate.enter("b", "public");
      for (let i = 0; i < 6; i++) void gate.enter(`n-${i}`, "public");
      advance(1_100);
      first.release();
      return oldest;
    };
    expect(await stalled()).toMatchObject({ ok: true });
    expect(await stalled(3_800)).toMatchObject({ ok: false, reason: "late" });
    expect(await stalled(4_000)).toMatchObject({ ok: true });
  });

  it("does not refuse on a prediction alone while the oldest request has waited less than half the budget", async () => {
    const { gate, advance } = clocked({ slots: 1, initialIntervalMs: 50, slowQueueMs: 500 });
    admitted(await gate.enter("n-0", "public"));
    for (let i = 0; i < 21; i++) void gate.enter(`n-${i + 1}`, "public");
    // 22 waiting at 50 ms is over the second, but nobody has waited yet: a server just started looks like this.
    expect(gate.waiting).toBe(21);
    advance(600);
    expect(await gate.enter("late", "public")).toMatchObject({ ok: false, reason: "busy" });
  });

  it("refuses nobody while fewer than minQueue wait ahead, however slow the queue", async () => {
    const { gate, advance } = clocked({ slots: 1, initialIntervalMs: 500, minQueue: 5 });
    admitted(await gate.enter("a", "public"));
    for (let i = 0; i < 4; i++) void gate.enter(`n-${i}`, "public");
    advance(1_000);
    // Four waiting at 500 ms each is two seconds, but four is ordinary traffic.
    void gate.enter("fifth", "public");
    expect(gate.waiting).toBe(5);
    expect(await gate.enter("sixth", "public")).toMatchObject({ ok: false, reason: "busy" });
  });

  it("learns how long the queue takes per render from renders ending while others wait", async () => {
    const { gate, advance } = clocked({ slots: 1, initialIntervalMs: 10 });
    let current = admitted(await gate.enter("n", "public"));
    for (let i = 0; i < 40; i++) {
      const next = gate.enter("m", "public");
      advance(100);
      current.release();
      current = admitted(await next);
    }
    expect(gate.intervalMs).toBeGreaterThan(90);
    // Ten waiting at 100 ms a render is a second: the eleventh is refused.
    for (let i = 0; i < 10; i++) void gate.enter(`w${i}`, "public");
    expect(await gate.enter("x", "public")).toMatchObject({ ok: false, reason: "busy" });
  });
});
