import { describe, expect, it } from "vitest";
import { createTurns } from "./turns";

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

describe("render turns", () => {
  it("serves callers in the order they asked", async () => {
    const turns = createTurns();
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4].map((n) => turns.next().then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3, 4]);
  });

  it("lets one caller go per turn of the event loop, so the loop gets back to its sockets in between", async () => {
    const turns = createTurns();
    const loop = loopTurns();
    const seen: number[] = [];
    await Promise.all(Array.from({ length: 5 }, () => turns.next().then(() => seen.push(loop.now))));
    loop.stop();
    // Five callers asking in the same turn go in five different turns.
    expect(new Set(seen).size).toBe(5);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it("never lets a caller go in the turn it asked in, even when nobody else waits", async () => {
    const turns = createTurns();
    const loop = loopTurns();
    const asked = loop.now;
    await turns.next();
    const went = loop.now;
    loop.stop();
    expect(went).toBeGreaterThan(asked);
    expect(turns.waiting).toBe(0);
  });
});
