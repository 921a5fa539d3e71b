import { availableParallelism } from "node:os";
import { hash, verify } from "@node-rs/argon2";

/**
 * At most `limit` tasks at once; the rest wait their turn in arrival order.
 * `peak` is the most that ever ran together (tests).
 */
export type ConcurrencyGate = {
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
  readonly peak: number;
};

export function createConcurrencyGate(limit: number): ConcurrencyGate {
  if (!Number.isInteger(limit) || limit < 1) throw new Error("a concurrency gate needs a limit of at least 1");
  let active = 0;
  let peak = 0;
  const queue: (() => void)[] = [];
  async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active >= limit) await new Promise<void>((resolve) => queue.push(resolve));
    else active++;
    peak = Math.max(peak, active);
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next in line (active stays the same), or free it.
      const next = queue.shift();
      if (next) next();
      else active--;
    }
  }
  return {
    run,
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    get peak() {
      return peak;
    },
  };
}

/**
 * Argon2id costs about 19 MiB and tens of milliseconds of a core per hash, on
 * libuv's small thread pool (shared with file and DNS work). A burst of logins
 * would otherwise take every thread and all the memory at once; this gate lets
 * half the cores hash (at least 2) and queues the rest (ADR 016).
 */
export const PASSWORD_HASH_CONCURRENCY = Math.max(2, Math.ceil(availableParallelism() / 2));

export const passwordHashGate = createConcurrencyGate(PASSWORD_HASH_CONCURRENCY);

/** OWASP's minimum for Argon2id (ADR 006): 19 MiB, 2 passes, 1 lane. */
export const PASSWORD_HASH_OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Every password hash, better-auth's and the seeds', goes through the gate. */
export function hashPassword(password: string): Promise<string> {
  return passwordHashGate.run(() => hash(password, PASSWORD_HASH_OPTIONS));
}

export function verifyPassword(stored: string, password: string): Promise<boolean> {
  return passwordHashGate.run(() => verify(stored, password));
}
