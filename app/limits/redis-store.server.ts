import { Redis } from "ioredis";
import type { RateLimitStore, StoreCount } from "./limit-store";

/**
 * Rate limits shared by every server of a site (ADR 041): with
 * REDIS_URL set, each count is one Lua script run by Redis, atomic whichever
 * server sends it, and a window is a key that expires when the window ends.
 *
 * While Redis cannot be reached, every call fails at once (no offline queue,
 * a 1 s timeout on a hung server): the limiter then refuses, fail closed, and
 * says the action is unavailable for a moment; the client reconnects by itself
 * and counting goes on when Redis is back.
 */

/** Keys in Redis: `bodima:limit:<limit name>:<key parts>`. */
export const REDIS_KEY_PREFIX = "bodima:limit:";

// KEYS[1]: the window's key. ARGV: window length (ms), amount (may be 0 or negative), limit ("" for none).
// Answers {count, ms left in the window, 1 when refused}; semantics as the memory store's.
const INCREMENT = `
local window = tonumber(ARGV[1])
local by = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  if by <= 0 then return {0, window, 0} end
  if limit and by > limit then return {0, window, 1} end
  redis.call('SET', KEYS[1], by, 'PX', window)
  return {by, window, 0}
end
local count = tonumber(redis.call('GET', KEYS[1]))
if limit and by > 0 and count + by > limit then return {count, ttl, 1} end
local after = count + by
if after < 0 then after = 0 end
redis.call('SET', KEYS[1], after, 'KEEPTTL')
return {after, ttl, 0}
`;

type IncrementCommand = (key: string, windowMs: number, by: number, limit: string) => Promise<[number, number, number]>;

/** A client for REDIS_URL that fails fast while Redis is down and reconnects by itself (every 0.2 to 2 s). */
export function connectRedis(url: string): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 1_000,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    lazyConnect: false,
  });
  // Connection errors are expected while Redis is down: calls fail and say so; nothing to crash.
  client.on("error", () => undefined);
  return client;
}

/**
 * Resolves once the client is connected: at once when it is, else within
 * `waitMs` (it is connecting: at start-up, or reconnecting after Redis came
 * back) or rejects (Redis is down: the caller fails closed).
 */
export function whenReady(client: Redis, waitMs = 1_000): Promise<void> {
  if (client.status === "ready") return Promise.resolve();
  return new Promise((resolve, reject) => {
    const ready = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      client.off("ready", ready);
      reject(new Error("Redis is not reachable"));
    }, waitMs);
    client.once("ready", ready);
  });
}

export function createRedisStore(client: Redis): RateLimitStore {
  client.defineCommand("bodimaLimitIncrement", { numberOfKeys: 1, lua: INCREMENT });
  const increment = (client as unknown as { bodimaLimitIncrement: IncrementCommand }).bodimaLimitIncrement.bind(client);
  return {
    async increment(key, windowMs, nowMs, by, limit): Promise<StoreCount> {
      await whenReady(client);
      const [count, msLeft, refused] = await increment(
        REDIS_KEY_PREFIX + key,
        windowMs,
        by,
        limit === undefined ? "" : String(limit),
      );
      return { count, resetAtMs: nowMs + msLeft, ...(refused ? { refused: true } : {}) };
    },
    async reset(key) {
      await whenReady(client);
      await client.del(REDIS_KEY_PREFIX + key);
    },
  };
}
