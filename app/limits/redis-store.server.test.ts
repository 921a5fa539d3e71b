import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRedis, type TestRedis } from "../../tests/redis-server";
import { createRateLimiter } from "./rate-limit.server";
import { connectRedis, createRedisStore } from "./redis-store.server";

// ADR 041: with REDIS_URL, rate limits are counted in Redis, atomically,
// whichever server a request reaches; while Redis is down limited actions are
// refused as unavailable (fail closed), and counting resumes by itself when it is
// back. A real Redis server (redis-server, started for this file) is used.

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis.stop();
});

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

describe("rate limits in Redis (ADR 041)", () => {
  it("counts two servers' attempts together, atomically, under a burst", async () => {
    const a = connectRedis(redis.url);
    const b = connectRedis(redis.url);
    try {
      const limiters = [createRateLimiter(createRedisStore(a)), createRateLimiter(createRedisStore(b))];
      const subject = { account: `${unique()}@example.lk`, ip: "203.0.113.9" };
      // 20 attempts at once, spread over both servers: exactly the limit's 5 get through.
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => limiters[i % 2].consume("loginAccount", subject)),
      );
      expect(answers.filter((d) => d.ok)).toHaveLength(5);
      const refused = answers.find((d) => !d.ok);
      expect(refused && !refused.ok && refused.retryAfterSeconds).toBeGreaterThan(15 * 60 - 5);
      // A success's refund and a reset reach the other server too.
      await limiters[0].reset("loginAccount", subject);
      expect((await limiters[1].consume("loginAccount", subject)).ok).toBe(true);
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });

  it("keeps the memory store's rules: a refused attempt counts nowhere, a refund never goes below zero, a window ends", async () => {
    const client = connectRedis(redis.url);
    try {
      const limiter = createRateLimiter(createRedisStore(client), { contactIp: { max: 2, windowSeconds: 1 } });
      const ip = { ip: `198.51.100.${Math.floor(Math.random() * 200)}` };
      await limiter.refund("contactIp", ip);
      await limiter.refund("contactIp", ip);
      expect((await limiter.consume("contactIp", ip)).ok).toBe(true);
      expect((await limiter.consume("contactIp", ip)).ok).toBe(true);
      expect((await limiter.consume("contactIp", ip)).ok).toBe(false);
      expect((await limiter.check("contactIp", ip)).ok).toBe(false);
      await limiter.refund("contactIp", ip);
      expect((await limiter.consume("contactIp", ip)).ok).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await limiter.consume("contactIp", ip)).ok).toBe(true);
    } finally {
      client.disconnect();
    }
  });

  it("refuses as unavailable at once while Redis is down, and counts again by itself once it is back", async () => {
    const client = connectRedis(redis.url);
    try {
      const limiter = createRateLimiter(createRedisStore(client));
      const subject = { account: `${unique()}@example.lk`, ip: "203.0.113.10" };
      expect((await limiter.consume("loginAccount", subject)).ok).toBe(true);
      await redis.stop();
      const started = Date.now();
      expect(await limiter.consume("loginAccount", subject)).toEqual({
        ok: false,
        retryAfterSeconds: 30,
        unavailable: true,
      });
      expect(Date.now() - started).toBeLessThan(1_500);
      await redis.start();
      // The client reconnects on its own (every 0.2 to 2 s); a fresh Redis has no counts.
      await expect
        .poll(async () => (await limiter.consume("loginAccount", subject)).ok, { timeout: 10_000, interval: 200 })
        .toBe(true);
    } finally {
      client.disconnect();
    }
  });
});
