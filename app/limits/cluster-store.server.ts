import type { Ask } from "~/lib/primary-ipc";
import type { RateLimitStore, StoreCount } from "./limit-store.ts";

// Only type imports here: the cluster's primary process (server/cluster.ts) runs
// this file directly with Node's type stripping, outside the app's build.

/**
 * Rate limits shared by the workers of one machine without Redis (ADR
 * 040): the counters live in the cluster's primary process, and each worker
 * asks it over the cluster's IPC channel (app/lib/primary-ipc.ts), so five
 * failed logins are five whichever worker each reached. The primary answers
 * every question with one call of its memory store, one at a time, so each
 * increment stays atomic.
 */

type LimitQuestion =
  | { op: "increment"; key: string; windowMs: number; nowMs: number; by: number; limit?: number }
  | { op: "reset"; key: string };

/** The topic workers ask the primary under. */
export const LIMIT_TOPIC = "limit";

/** The primary's answer to a worker's limit question, from its store. */
export function limitHandler(store: RateLimitStore): (body: unknown) => Promise<StoreCount | null> {
  return async (body) => {
    const question = body as LimitQuestion;
    if (question.op === "increment")
      return store.increment(question.key, question.windowMs, question.nowMs, question.by, question.limit);
    await store.reset(question.key);
    return null;
  };
}

/**
 * A store that asks the primary process. A question the primary does not answer
 * in time fails (the limiter then refuses: fail closed).
 */
export function createPrimaryStore(ask: Ask): RateLimitStore {
  return {
    async increment(key, windowMs, nowMs, by, limit) {
      const result = await ask<StoreCount | null>(LIMIT_TOPIC, { op: "increment", key, windowMs, nowMs, by, limit });
      if (!result) throw new Error("rate limits: the primary answered without a count");
      return result;
    },
    async reset(key) {
      await ask(LIMIT_TOPIC, { op: "reset", key });
    },
  };
}
