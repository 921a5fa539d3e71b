import type { RateLimitStore, StoreCount } from "./limit-store.ts";

// Only type imports here: the cluster's primary process (server/cluster.ts) runs
// this file directly with Node's type stripping, outside the app's build.

/**
 * Rate limits shared by the workers of one machine without Redis (issue 14,
 * ADR 040): the counters live in the cluster's primary process, and each worker
 * asks it over the cluster's IPC channel, so five failed logins are five
 * whichever worker each reached. The primary answers every request with one
 * call of its memory store, one at a time, so each increment stays atomic.
 */

type IncrementRequest = {
  type: "bodima:limit";
  id: number;
  op: "increment";
  key: string;
  windowMs: number;
  nowMs: number;
  by: number;
  limit?: number;
};
type ResetRequest = { type: "bodima:limit"; id: number; op: "reset"; key: string };
export type LimitRequest = IncrementRequest | ResetRequest;
export type LimitReply = { type: "bodima:limit-reply"; id: number; result?: StoreCount; error?: string };

/** The worker's end of an IPC channel (process in a cluster worker). */
export type WorkerChannel = {
  send?: (message: LimitRequest) => unknown;
  on(event: "message", listener: (message: unknown) => void): unknown;
};

/** The primary's end of one worker's channel (a cluster Worker). */
export type PrimaryChannel = {
  send(message: LimitReply): unknown;
  on(event: "message", listener: (message: unknown) => void): unknown;
  isConnected(): boolean;
};

const isRequest = (m: unknown): m is LimitRequest => (m as LimitRequest | null)?.type === "bodima:limit";
const isReply = (m: unknown): m is LimitReply => (m as LimitReply | null)?.type === "bodima:limit-reply";

/** Answers one worker's limit requests from the primary's store. */
export function answerLimitRequests(worker: PrimaryChannel, store: RateLimitStore): void {
  worker.on("message", (message) => {
    if (!isRequest(message)) return;
    const done =
      message.op === "increment"
        ? store.increment(message.key, message.windowMs, message.nowMs, message.by, message.limit)
        : store.reset(message.key).then(() => undefined);
    done.then(
      (result) => worker.isConnected() && worker.send({ type: "bodima:limit-reply", id: message.id, result }),
      (error: unknown) =>
        worker.isConnected() && worker.send({ type: "bodima:limit-reply", id: message.id, error: String(error) }),
    );
  });
}

/**
 * A store that asks the primary process. A request the primary does not answer
 * within `timeoutMs` fails (the limiter then refuses: fail closed).
 */
export function createPrimaryStore(channel: WorkerChannel = process, timeoutMs = 2_000): RateLimitStore {
  let nextId = 1;
  const pending = new Map<number, { resolve: (r: StoreCount | undefined) => void; reject: (e: Error) => void }>();
  channel.on("message", (message) => {
    if (!isReply(message)) return;
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.error) waiting.reject(new Error(`rate limits: ${message.error}`));
    else waiting.resolve(message.result);
  });
  function ask(request: Omit<IncrementRequest, "id" | "type"> | Omit<ResetRequest, "id" | "type">) {
    const id = nextId++;
    return new Promise<StoreCount | undefined>((resolve, reject) => {
      if (!channel.send) {
        reject(new Error("rate limits: this process has no primary to ask"));
        return;
      }
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error("rate limits: the primary process did not answer"));
      }, timeoutMs);
      timer.unref();
      pending.set(id, {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      channel.send({ ...request, id, type: "bodima:limit" } as LimitRequest);
    });
  }
  return {
    async increment(key, windowMs, nowMs, by, limit) {
      const result = await ask({ op: "increment", key, windowMs, nowMs, by, limit });
      if (!result) throw new Error("rate limits: the primary answered without a count");
      return result;
    },
    async reset(key) {
      await ask({ op: "reset", key });
    },
  };
}
