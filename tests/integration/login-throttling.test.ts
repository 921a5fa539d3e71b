import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { LOGIN_DELAY_CAP_SECONDS } from "../../app/limits/login-throttle.server";
import {
  createMemoryStore,
  createRateLimiter,
  DEFAULT_LIMITS,
  type RateLimiter,
} from "../../app/limits/rate-limit.server";
import { connectRedis, createRedisStore } from "../../app/limits/redis-store.server";
import { createOwnerAccount } from "../../app/models/account.server";
import { action as loginAction } from "../../app/routes/login";
import { startTestRedis } from "../redis-server";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { describeEachDatabase } from "../test-db";

// ADR 016: login attempts are reserved before the password is
// checked (a parallel burst cannot slip past the limits), limited per account
// and network origin (an attacker elsewhere cannot lock the owner out), with
// account-wide delays that grow instead of a 15-minute lockout.

const PASSWORD = "Secret-pass1";
const OWNER_IP = "198.51.100.20";
type Action = (args: { request: Request; params: Record<string, string>; context: unknown }) => Promise<unknown>;
type Answer = { status: number; body: Record<string, unknown>; retryAfter: number };

function site(db: DB, limiter: RateLimiter = createRateLimiter(createMemoryStore())) {
  return async function login(email: string, password: string, clientIp: string): Promise<Answer> {
    const request = new Request(`${TEST_SITE}/login`, {
      method: "POST",
      headers: { origin: TEST_SITE },
      body: new URLSearchParams({ intent: "login", email, password, enhanced: "1" }),
    });
    const result = await (loginAction as Action)({
      request,
      params: {},
      context: testContext({ db, limiter, clientIp }),
    });
    const init = (result as { init?: { headers?: HeadersInit } | null }).init;
    return { ...unwrapResult(result), retryAfter: Number(new Headers(init?.headers).get("Retry-After") ?? 0) };
  };
}

async function newOwner(db: DB) {
  const email = `throttle-${randomBytes(4).toString("hex")}@example.lk`;
  await createOwnerAccount(db, { name: "Throttle Owner", email, phone: "0771234567", password: PASSWORD });
  return email;
}

const unknownEmail = () => `nobody-${randomBytes(4).toString("hex")}@example.lk`;

describeEachDatabase("login throttling", (ctx) => {
  it("with REDIS_URL and Redis down, login fails closed with a clear 503, and works again once Redis is back (ADR 041)", async () => {
    const { db } = ctx();
    const redis = await startTestRedis();
    const client = connectRedis(redis.url);
    try {
      const login = site(db, createRateLimiter(createRedisStore(client)));
      const email = await newOwner(db);
      expect((await login(email, PASSWORD, OWNER_IP)).status).toBe(200);
      await redis.stop();
      // Even the right password: without its limits, login cannot be let through (fail closed).
      const down = await login(email, PASSWORD, OWNER_IP);
      expect(down.status).toBe(503);
      expect(down.body.message).toBe("common.unavailable");
      expect(down.retryAfter).toBe(30);
      await redis.start();
      await expect.poll(async () => (await login(email, PASSWORD, OWNER_IP)).status, { timeout: 10_000 }).toBe(200);
    } finally {
      client.disconnect();
      await redis.stop();
    }
  });

  it("a parallel burst of logins for different emails from one IP is refused beyond the per-IP limit", async () => {
    const { db } = ctx();
    const login = site(db);
    const burst = DEFAULT_LIMITS.loginIp.max + 15;
    const answers = await Promise.all(
      Array.from({ length: burst }, () => login(unknownEmail(), "Wrong-pass1", "203.0.113.5")),
    );
    const statuses = answers.map((a) => a.status);
    // Before the fix every one of them passed (and cost an Argon2id hash): the limit was read before any failure was counted.
    expect(statuses.filter((s) => s === 401)).toHaveLength(DEFAULT_LIMITS.loginIp.max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(burst - DEFAULT_LIMITS.loginIp.max);
    for (const answer of answers.filter((a) => a.status === 429)) expect(answer.retryAfter).toBeGreaterThan(0);
    // Another IP is not affected.
    const email = await newOwner(db);
    expect((await login(email, PASSWORD, "203.0.113.6")).body).toMatchObject({ status: "success" });
  });

  it("successful logins give their reserved attempt back: a busy campus address is not throttled by its own successes", async () => {
    const { db } = ctx();
    const login = site(db);
    const email = await newOwner(db);
    for (let i = 0; i < DEFAULT_LIMITS.loginIp.max + 5; i++) {
      expect((await login(email, PASSWORD, "192.0.2.44")).body, `login ${i + 1}`).toMatchObject({ status: "success" });
    }
  });

  it("an attacker failing 5+ times from another network does not lock the owner out of their own", async () => {
    const { db } = ctx();
    const login = site(db);
    const email = await newOwner(db);
    for (let i = 0; i < DEFAULT_LIMITS.loginAccount.max; i++)
      expect((await login(email, `Wrong-pass${i}`, "203.0.113.66")).status).toBe(401);
    // The attacker's network is locked for this account, even with the right password …
    const attacker = await login(email, PASSWORD, "203.0.113.67");
    expect(attacker.status).toBe(429);
    expect(attacker.body.message).toBe("accounts.errors.auth.too-many-requests");
    // … while the owner, at home, signs in at once.
    expect((await login(email, PASSWORD, OWNER_IP)).body).toMatchObject({ status: "success" });
  });

  it("failures from many networks slow the account down with growing delays, never a lockout for its owner", async () => {
    const { db } = ctx();
    let now = Date.parse("2026-11-23T10:00:00Z");
    const login = site(
      db,
      createRateLimiter(createMemoryStore(), {}, () => now),
    );
    const email = await newOwner(db);
    const free = DEFAULT_LIMITS.loginAccountSlowdown.max;
    let network = 0;
    const elsewhere = () => `203.0.${100 + network++}.9`;
    for (let i = 0; i < free; i++) expect((await login(email, "Wrong-pass1", elsewhere())).status).toBe(401);

    // From here every failure doubles the wait before the next attempt on the account, from anywhere.
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      expect((await login(email, "Wrong-pass1", elsewhere())).status).toBe(401);
      const refused = await login(email, "Wrong-pass1", elsewhere());
      expect(refused.status).toBe(429);
      waits.push(refused.retryAfter);
      now += refused.retryAfter * 1000;
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60].map((s) => Math.min(s, LOGIN_DELAY_CAP_SECONDS)));

    // The owner waits at most the cap, then signs in; no 15-minute lockout.
    expect((await login(email, "Wrong-pass1", elsewhere())).status).toBe(401);
    const owner = await login(email, PASSWORD, OWNER_IP);
    expect(owner.status).toBe(429);
    expect(owner.retryAfter).toBeLessThanOrEqual(LOGIN_DELAY_CAP_SECONDS);
    now += owner.retryAfter * 1000;
    expect((await login(email, PASSWORD, OWNER_IP)).body).toMatchObject({ status: "success" });
  });

  it("a refused login creates no keys and counts nowhere", async () => {
    const { db } = ctx();
    const store = createMemoryStore();
    const login = site(db, createRateLimiter(store, { loginIp: { max: 1, windowSeconds: 900 } }));
    expect((await login(unknownEmail(), "Wrong-pass1", "203.0.113.77")).status).toBe(401);
    const size = store.size;
    for (let i = 0; i < 5; i++) expect((await login(unknownEmail(), "Wrong-pass1", "203.0.113.77")).status).toBe(429);
    expect(store.size).toBe(size);
  });
});
