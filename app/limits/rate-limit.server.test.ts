import { describe, expect, it } from "vitest";
import { createMemoryStore, createRateLimiter, parseLimitOverrides, retryAfterHeaders } from "./rate-limit.server";

function limiterAt(start = 1_000_000) {
  let now = start;
  const limiter = createRateLimiter(createMemoryStore(), { signupIp: { max: 2, windowSeconds: 60 } }, () => now);
  return { limiter, advance: (ms: number) => (now += ms) };
}

describe("rate limiter", () => {
  it("allows up to the limit, then refuses with the seconds left in the window", async () => {
    const { limiter, advance } = limiterAt();
    expect(await limiter.consume("signupIp", "1.2.3.4")).toEqual({ ok: true, remaining: 1 });
    expect(await limiter.consume("signupIp", "1.2.3.4")).toEqual({ ok: true, remaining: 0 });
    advance(15_000);
    expect(await limiter.consume("signupIp", "1.2.3.4")).toEqual({ ok: false, retryAfterSeconds: 45 });
    // Another key and another limit are counted apart.
    expect((await limiter.consume("signupIp", "5.6.7.8")).ok).toBe(true);
    expect((await limiter.consume("contactIp", "1.2.3.4")).ok).toBe(true);
  });

  it("opens again when the window ends", async () => {
    const { limiter, advance } = limiterAt();
    await limiter.consume("signupIp", "ip");
    await limiter.consume("signupIp", "ip");
    expect((await limiter.consume("signupIp", "ip")).ok).toBe(false);
    advance(60_000);
    expect((await limiter.consume("signupIp", "ip")).ok).toBe(true);
  });

  it("check() asks about the next attempt without counting; record() counts failures only", async () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 10; i++) expect((await limiter.check("loginAccount", "a@b.lk")).ok).toBe(true);
    for (let i = 0; i < 4; i++) await limiter.record("loginAccount", "a@b.lk");
    expect((await limiter.check("loginAccount", "a@b.lk")).ok).toBe(true);
    await limiter.record("loginAccount", "A@B.lk"); // keys ignore case
    expect(await limiter.check("loginAccount", "a@b.lk")).toEqual({ ok: false, retryAfterSeconds: 900 });
    await limiter.reset("loginAccount", "a@b.lk");
    expect((await limiter.check("loginAccount", "a@b.lk")).ok).toBe(true);
  });

  it("reads overrides from RATE_LIMITS and refuses nonsense", () => {
    expect(parseLimitOverrides("signupIp=1000, loginIp=50/900")).toEqual({
      signupIp: { max: 1000, windowSeconds: 3600 },
      loginIp: { max: 50, windowSeconds: 900 },
    });
    expect(parseLimitOverrides(undefined)).toEqual({});
    expect(() => parseLimitOverrides("nope=3")).toThrow(/RATE_LIMITS/);
    expect(() => parseLimitOverrides("signupIp=many")).toThrow(/RATE_LIMITS/);
    expect(() => parseLimitOverrides("signupIp=3/0")).toThrow(/at least 1 second/);
  });

  it("answers with Retry-After", () => {
    expect(retryAfterHeaders({ retryAfterSeconds: 42 })).toMatchObject({ "Retry-After": "42" });
  });
});
