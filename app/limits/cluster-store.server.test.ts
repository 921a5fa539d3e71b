import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { answerWorker, askPrimary } from "~/lib/primary-ipc";
import { createPrimaryStore, LIMIT_TOPIC, limitHandler } from "./cluster-store.server";
import { createMemoryStore } from "./memory-store.server";
import { createRateLimiter } from "./rate-limit.server";

/** Two ends of an IPC channel, as cluster gives a worker (process) and the primary (Worker); messages cross asynchronously. */
function channelPair(options: { primaryAnswers?: boolean } = {}) {
  const toPrimary = new EventEmitter();
  const toWorker = new EventEmitter();
  const worker = {
    send: (message: unknown) => {
      if (options.primaryAnswers !== false) setImmediate(() => toPrimary.emit("message", message));
      return true;
    },
    on: (event: "message", listener: (m: unknown) => void) => toWorker.on(event, listener),
  };
  const primary = {
    send: (message: unknown) => setImmediate(() => toWorker.emit("message", message)),
    on: (event: "message", listener: (m: unknown) => void) => toPrimary.on(event, listener),
    isConnected: () => true,
  };
  return { worker, primary };
}

describe("rate limits kept by the cluster's primary (ADR 040)", () => {
  it("counts two workers' attempts together: the sixth failed login is refused whichever worker it reaches", async () => {
    const store = createMemoryStore();
    const a = channelPair();
    const b = channelPair();
    answerWorker(a.primary, { [LIMIT_TOPIC]: limitHandler(store) });
    answerWorker(b.primary, { [LIMIT_TOPIC]: limitHandler(store) });
    const limiterA = createRateLimiter(createPrimaryStore(askPrimary(a.worker)));
    const limiterB = createRateLimiter(createPrimaryStore(askPrimary(b.worker)));
    const subject = { account: "nimali@example.lk", ip: "203.0.113.7" };
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await (i % 2 ? limiterB : limiterA).consume("loginAccount", subject)).ok);
    expect(answers).toEqual([true, true, true, true, true, false]);
    await limiterA.reset("loginAccount", subject);
    expect((await limiterB.consume("loginAccount", subject)).ok).toBe(true);
  });

  it("refuses, fail closed and saying so, when the primary does not answer", async () => {
    const silent = channelPair({ primaryAnswers: false });
    const limiter = createRateLimiter(createPrimaryStore(askPrimary(silent.worker, 50)));
    const decision = await limiter.consume("contactIp", { ip: "203.0.113.7" });
    expect(decision).toEqual({ ok: false, retryAfterSeconds: 30, unavailable: true });
    expect(await limiter.tally("loginAccountSlowdown", { account: "nimali@example.lk" })).toBeNull();
  });
});
