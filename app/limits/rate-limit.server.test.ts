import { describe, expect, it } from "vitest";
import { memoryStoreMetrics } from "./memory-store.server";
import {
  createMemoryStore,
  createRateLimiter,
  parseLimitOverrides,
  type RateLimitStore,
  retryAfterHeaders,
} from "./rate-limit.server";

function limiterAt(start = 1_000_000) {
  let now = start;
  const limiter = createRateLimiter(createMemoryStore(), { signupIp: { max: 2, windowSeconds: 60 } }, () => now);
  return { limiter, advance: (ms: number) => (now += ms) };
}

describe("rate limiter", () => {
  it("allows up to the limit, then refuses with the seconds left in the window", async () => {
    const { limiter, advance } = limiterAt();
    expect(await limiter.consume("signupIp", { ip: "1.2.3.4" })).toEqual({ ok: true, remaining: 1 });
    expect(await limiter.consume("signupIp", { ip: "1.2.3.4" })).toEqual({ ok: true, remaining: 0 });
    advance(15_000);
    expect(await limiter.consume("signupIp", { ip: "1.2.3.4" })).toEqual({ ok: false, retryAfterSeconds: 45 });
    // Another key and another limit are counted apart.
    expect((await limiter.consume("signupIp", { ip: "5.6.7.8" })).ok).toBe(true);
    expect((await limiter.consume("contactIp", { ip: "1.2.3.4" })).ok).toBe(true);
  });

  it("opens again when the window ends", async () => {
    const { limiter, advance } = limiterAt();
    await limiter.consume("signupIp", { ip: "ip" });
    await limiter.consume("signupIp", { ip: "ip" });
    expect((await limiter.consume("signupIp", { ip: "ip" })).ok).toBe(false);
    advance(60_000);
    expect((await limiter.consume("signupIp", { ip: "ip" })).ok).toBe(true);
  });

  it("check() asks about the next attempt without counting; record() counts failures only", async () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 10; i++)
      expect((await limiter.check("loginAccount", { account: "a@b.lk", ip: "1.2.3.4" })).ok).toBe(true);
    for (let i = 0; i < 4; i++) await limiter.record("loginAccount", { account: "a@b.lk", ip: "1.2.3.4" });
    expect((await limiter.check("loginAccount", { account: "a@b.lk", ip: "1.2.3.4" })).ok).toBe(true);
    await limiter.record("loginAccount", { account: "A@B.lk", ip: "1.2.3.4" }); // keys ignore case
    expect(await limiter.check("loginAccount", { account: "a@b.lk", ip: "1.2.3.4" })).toEqual({
      ok: false,
      retryAfterSeconds: 900,
    });
    await limiter.reset("loginAccount", { account: "a@b.lk", ip: "1.2.3.4" });
    expect((await limiter.check("loginAccount", { account: "a@b.lk", ip: "1.2.3.4" })).ok).toBe(true);
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

  it("a refused attempt is not counted and creates no key", async () => {
    const store = createMemoryStore();
    const limiter = createRateLimiter(
      store,
      { signupIp: { max: 1, windowSeconds: 60 }, contactIp: { max: 0, windowSeconds: 60 } },
      () => 1_000_000,
    );
    expect((await limiter.consume("signupIp", { ip: "ip" })).ok).toBe(true);
    for (let i = 0; i < 5; i++) expect((await limiter.consume("signupIp", { ip: "ip" })).ok).toBe(false);
    // Given back once, the one counted attempt is gone: refusals had added nothing.
    await limiter.refund("signupIp", { ip: "ip" });
    expect((await limiter.consume("signupIp", { ip: "ip" })).ok).toBe(true);
    const size = store.size;
    expect((await limiter.consume("contactIp", { ip: "new-key" })).ok).toBe(false);
    expect((await limiter.check("reportIp", { ip: "never-counted" })).ok).toBe(true);
    await limiter.refund("reportIp", { ip: "never-counted" });
    expect(store.size).toBe(size);
  });

  it("a full store evicts no live window: a new key is counted in the limit's sketch, never let past", async () => {
    // Exact windows end 60 s after their first hit; the sketch's windows end on the minute.
    let now = 1_000_010_000;
    const store = createMemoryStore({ maxKeys: 3 });
    const limiter = createRateLimiter(store, { signupIp: { max: 2, windowSeconds: 60 } }, () => now);
    for (const ip of ["a", "b", "c"]) await limiter.consume("signupIp", { ip: ip });
    await limiter.consume("signupIp", { ip: "a" });
    expect(store.size).toBe(3);
    now = 1_000_040_000;

    // A fourth key would push out a live window (and hand its owner a fresh allowance): no room for it,
    // so it is counted in fixed memory, and refused at its limit like any other.
    expect((await limiter.check("signupIp", { ip: "d" })).ok).toBe(true);
    expect(await limiter.consume("signupIp", { ip: "d" })).toEqual({ ok: true, remaining: 1 });
    expect(await limiter.tally("signupIp", { ip: "d" })).toBe(2);
    expect(await limiter.consume("signupIp", { ip: "d" })).toEqual({ ok: false, retryAfterSeconds: 40 });
    expect((await limiter.consume("signupIp", { ip: "e" })).ok).toBe(true);
    expect(store.size).toBe(3);
    expect(store.overflows()).toEqual(new Map([["signupIp", 3]]));
    // The live windows still count: "a" used its 2 and stays refused.
    expect((await limiter.consume("signupIp", { ip: "a" })).ok).toBe(false);
    expect((await limiter.consume("signupIp", { ip: "b" })).ok).toBe(true);

    // Each limit has room of its own: a flood of one kind does not crowd out another.
    expect((await limiter.consume("loginIp", { ip: "d" })).ok).toBe(true);
    expect(store.sizes().get("loginIp")).toBe(1);

    now = 1_000_075_000;
    // The windows have ended: swept, and room again; "d" keeps what the sketch counted until its window ends.
    expect((await limiter.consume("signupIp", { ip: "f" })).ok).toBe(true);
    expect((await limiter.consume("signupIp", { ip: "e" })).ok).toBe(true);
    expect((await limiter.consume("signupIp", { ip: "e" })).ok).toBe(false);
  });

  it("tells /metrics how many windows each limit holds and may hold", async () => {
    const store = createMemoryStore({ maxKeys: 3 });
    const limiter = createRateLimiter(store, { signupIp: { max: 2, windowSeconds: 60 } }, () => 1_000_000);
    for (const ip of ["a", "b"]) await limiter.consume("signupIp", { ip });
    await limiter.consume("loginIp", { ip: "a" });
    const text = memoryStoreMetrics(store);
    expect(text).toMatch(/^bodima_rate_limit_keys\{limit="signupIp"\} 2$/m);
    expect(text).toMatch(/^bodima_rate_limit_keys\{limit="loginIp"\} 1$/m);
    expect(text).toMatch(/^bodima_rate_limit_max_keys 3$/m);
  });

  it("space() allows one attempt per given number of seconds", async () => {
    const { limiter, advance } = limiterAt();
    expect((await limiter.space("loginAccountSlowdown", { account: "a@b.lk" }, 4)).ok).toBe(true);
    expect(await limiter.space("loginAccountSlowdown", { account: "a@b.lk" }, 8)).toEqual({
      ok: false,
      retryAfterSeconds: 4,
    });
    expect((await limiter.space("loginAccountSlowdown", { account: "other@b.lk" }, 4)).ok).toBe(true);
    advance(4_000);
    expect((await limiter.space("loginAccountSlowdown", { account: "a@b.lk" }, 8)).ok).toBe(true);
    advance(7_000);
    expect(await limiter.space("loginAccountSlowdown", { account: "a@b.lk" }, 8)).toEqual({
      ok: false,
      retryAfterSeconds: 1,
    });
  });

  it("tally() counts whatever the limit and refund() never goes below zero", async () => {
    const { limiter } = limiterAt();
    for (let i = 1; i <= 12; i++) expect(await limiter.tally("signupIp", { ip: "ip" })).toBe(i);
    for (let i = 0; i < 20; i++) await limiter.refund("signupIp", { ip: "ip" });
    expect(await limiter.tally("signupIp", { ip: "ip" })).toBe(1);
  });

  it("remembers a refusal of viewVisitor until its window ends, asking the store no more (ADR 014)", async () => {
    const memory = createMemoryStore();
    let asked = 0;
    const store: RateLimitStore = {
      increment: (...args) => {
        asked++;
        return memory.increment(...args);
      },
      reset: (key) => memory.reset(key),
    };
    let now = 1_000_000;
    const limiter = createRateLimiter(store, { viewVisitor: { max: 2, windowSeconds: 60 } }, () => now);
    const scraper = { visitor: null, ip: "198.51.100.7", listing: 1 };
    expect(limiter.knownRefusal("viewVisitor", scraper)).toBeNull();
    for (let i = 0; i < 2; i++) {
      expect((await limiter.check("viewVisitor", scraper)).ok).toBe(true);
      await limiter.record("viewVisitor", scraper);
    }
    expect(await limiter.check("viewVisitor", scraper)).toEqual({ ok: false, retryAfterSeconds: 60 });
    const before = asked;
    now += 20_000;
    // Known in this process: refused at once, with the time left, and the store is not asked.
    expect(limiter.knownRefusal("viewVisitor", { ...scraper, listing: 2 })).toEqual({
      ok: false,
      retryAfterSeconds: 40,
    });
    expect((await limiter.check("viewVisitor", scraper)).ok).toBe(false);
    expect(asked).toBe(before);
    // Another address is not refused by it.
    expect(limiter.knownRefusal("viewVisitor", { ...scraper, ip: "203.0.113.9" })).toBeNull();
    // The window ends: the store is asked again and allows.
    now += 40_000;
    expect(limiter.knownRefusal("viewVisitor", scraper)).toBeNull();
    expect((await limiter.check("viewVisitor", scraper)).ok).toBe(true);
    expect(asked).toBeGreaterThan(before);
  });

  it("never remembers refusals of limits that give attempts back (a login that succeeded)", async () => {
    const { limiter } = limiterAt();
    await limiter.consume("signupIp", { ip: "ip" });
    await limiter.consume("signupIp", { ip: "ip" });
    expect((await limiter.consume("signupIp", { ip: "ip" })).ok).toBe(false);
    expect(limiter.knownRefusal("signupIp", { ip: "ip" })).toBeNull();
    await limiter.refund("signupIp", { ip: "ip" });
    expect((await limiter.consume("signupIp", { ip: "ip" })).ok).toBe(true);
  });
});
