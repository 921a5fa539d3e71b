/**
 * Rate limits (issue 4 "Abuse limits"). Fixed windows counted in a store that
 * sits behind an interface: memory for one process now, Redis when the site
 * runs on several machines. Every limit has a name, so settings, logs and
 * tests speak of "signupIp", not of numbers.
 */

export type LimitRule = { max: number; windowSeconds: number };

export const DEFAULT_LIMITS = {
  /** Failed logins for one account (email), whatever the IP. */
  loginAccount: { max: 5, windowSeconds: 15 * 60 },
  /** Failed logins from one IP, whatever the account. */
  loginIp: { max: 20, windowSeconds: 15 * 60 },
  signupIp: { max: 5, windowSeconds: 60 * 60 },
  /** Password-reset emails to one address. */
  resetEmail: { max: 3, windowSeconds: 60 * 60 },
  reportIp: { max: 10, windowSeconds: 60 * 60 },
  contactIp: { max: 5, windowSeconds: 60 * 60 },
  uploadUser: { max: 30, windowSeconds: 60 * 60 },
  /** Settings' password change for one account: each try is a guess of the current password (ADR 019). */
  passwordUser: { max: 5, windowSeconds: 15 * 60 },
  /** Views one visitor (cookie, else IP) may count per hour across all listings. */
  viewVisitor: { max: 60, windowSeconds: 60 * 60 },
} as const satisfies Record<string, LimitRule>;

export type LimitName = keyof typeof DEFAULT_LIMITS;
export const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as LimitName[];

export type LimitDecision = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

/** Counts hits per key in fixed windows. Keys are opaque strings; values expire by themselves. */
export type RateLimitStore = {
  /** Adds `by` (0 only reads) to the key's window and returns the count and when the window ends (ms since epoch). */
  increment(key: string, windowMs: number, nowMs: number, by: number): Promise<{ count: number; resetAtMs: number }>;
  reset(key: string): Promise<void>;
};

export type RateLimiter = {
  /** Counts one attempt and says whether it is allowed (the attempt that reaches the limit still is). */
  consume(name: LimitName, key: string): Promise<LimitDecision>;
  /** Says whether one more attempt would be allowed, without counting one (limits on failures only). */
  check(name: LimitName, key: string): Promise<LimitDecision>;
  /** Counts an attempt after the fact (a failed login). */
  record(name: LimitName, key: string): Promise<void>;
  reset(name: LimitName, key: string): Promise<void>;
  readonly rules: Record<LimitName, LimitRule>;
};

const MAX_MEMORY_KEYS = 100_000;

/** One process's counters. Bounded: when full, expired windows go first, then the oldest. */
export function createMemoryStore(): RateLimitStore {
  const windows = new Map<string, { count: number; resetAtMs: number }>();
  function makeRoom(nowMs: number) {
    if (windows.size < MAX_MEMORY_KEYS) return;
    for (const [key, w] of windows) if (w.resetAtMs <= nowMs) windows.delete(key);
    // Maps iterate in insertion order: drop the oldest tenth when nothing had expired.
    if (windows.size >= MAX_MEMORY_KEYS) {
      let drop = Math.ceil(MAX_MEMORY_KEYS / 10);
      for (const key of windows.keys()) {
        if (drop-- <= 0) break;
        windows.delete(key);
      }
    }
  }
  return {
    async increment(key, windowMs, nowMs, by) {
      let w = windows.get(key);
      if (!w || w.resetAtMs <= nowMs) {
        if (by === 0) return { count: 0, resetAtMs: nowMs + windowMs };
        makeRoom(nowMs);
        w = { count: 0, resetAtMs: nowMs + windowMs };
        windows.delete(key);
        windows.set(key, w);
      }
      w.count += by;
      return { count: w.count, resetAtMs: w.resetAtMs };
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}

/**
 * RATE_LIMITS overrides some limits, for example "signupIp=1000,loginIp=50/900"
 * (max, or max/windowSeconds). Unknown names or bad numbers are refused at start-up.
 */
export function parseLimitOverrides(text: string | undefined): Partial<Record<LimitName, LimitRule>> {
  const overrides: Partial<Record<LimitName, LimitRule>> = {};
  for (const part of (text ?? "").split(",").map((p) => p.trim()).filter(Boolean)) {
    const match = /^([A-Za-z]+)=(\d+)(?:\/(\d+))?$/.exec(part);
    if (!match || !(match[1] in DEFAULT_LIMITS)) {
      throw new Error(`RATE_LIMITS: "${part}" is not name=max or name=max/seconds with a name among ${LIMIT_NAMES.join(", ")}`);
    }
    const name = match[1] as LimitName;
    const windowSeconds = match[3] ? Number(match[3]) : DEFAULT_LIMITS[name].windowSeconds;
    if (windowSeconds < 1) throw new Error(`RATE_LIMITS: the window of ${name} must be at least 1 second`);
    overrides[name] = { max: Number(match[2]), windowSeconds };
  }
  return overrides;
}

export function createRateLimiter(
  store: RateLimitStore,
  overrides: Partial<Record<LimitName, LimitRule>> = {},
  clock: () => number = Date.now,
): RateLimiter {
  const rules = { ...DEFAULT_LIMITS, ...overrides } as Record<LimitName, LimitRule>;
  const storeKey = (name: LimitName, key: string) => `${name}:${key.toLowerCase()}`;

  async function count(name: LimitName, key: string, by: number): Promise<LimitDecision> {
    const rule = rules[name];
    const now = clock();
    const { count, resetAtMs } = await store.increment(storeKey(name, key), rule.windowSeconds * 1000, now, by);
    // consume() counts first, so the attempt that reaches the limit is allowed; check() asks about the next one.
    const used = by === 0 ? count + 1 : count;
    if (used > rule.max) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((resetAtMs - now) / 1000)) };
    return { ok: true, remaining: rule.max - used };
  }

  return {
    rules,
    consume: (name, key) => count(name, key, 1),
    check: (name, key) => count(name, key, 0),
    async record(name, key) {
      await count(name, key, 1);
    },
    reset: (name, key) => store.reset(storeKey(name, key)),
  };
}

/** Headers for a refused request: Retry-After in seconds, never cached. */
export function retryAfterHeaders(decision: { retryAfterSeconds: number }): HeadersInit {
  return { "Retry-After": String(decision.retryAfterSeconds), "Cache-Control": "no-store" };
}
