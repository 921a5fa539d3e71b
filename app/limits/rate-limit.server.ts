import { normalizeEmail } from "~/lib/email";
import { rateLimitRefusals } from "~/lib/metrics.server";
import { ipLimitKey, networkOrigin } from "./client-ip.server";

import type { RateLimitStore, StoreCount } from "./limit-store";

export type { RateLimitStore, StoreCount } from "./limit-store";
export { createMemoryStore, MAX_MEMORY_KEYS, type MemoryStore } from "./memory-store.server";

/**
 * Rate limits (ADR 007). Fixed windows counted in a store that
 * sits behind an interface: memory for one process now, Redis when the site
 * runs on several machines. Every limit has a name, so settings, logs and
 * tests speak of "signupIp", not of numbers, and declares what it counts per
 * (`per`): callers pass the address or ids, the limiter builds the key
 * (ADR 025), so no caller can forget the IPv6 grouping.
 */

export type LimitRule = { max: number; windowSeconds: number };

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/**
 * What a limit counts per, and what the caller passes for it:
 * - ip: one address (`ip`), IPv6 per /64: one customer holds a whole /64;
 * - network: the address's network (`ip`), IPv4 /24, IPv6 /64 (networkOrigin);
 * - account: an email address (`account`), whether or not an account has it;
 * - user: a signed-in user's id (`user`);
 * - visitor: a signed visitor id (`visitor`), else the address as for ip: a new cookie proves nothing;
 * - listing: a listing's id (`listing`);
 * - tap: one act on one listing on one day (`tap`, e.g. "1001:call:2026-11-29", ADR 089).
 */
type KeyInputs = {
  ip: { ip: string };
  network: { ip: string };
  account: { account: string };
  user: { user: string };
  visitor: { visitor: string | null; ip: string };
  listing: { listing: number };
  tap: { tap: string };
};
export type KeyPart = keyof KeyInputs;
type AnyKeyInput = UnionToIntersection<KeyInputs[KeyPart]>;

const KEY_PARTS: Record<KeyPart, (input: AnyKeyInput) => string> = {
  ip: ({ ip }) => `ip=${ipLimitKey(ip)}`,
  network: ({ ip }) => `network=${networkOrigin(ip)}`,
  account: ({ account }) => `account=${normalizeEmail(account)}`,
  user: ({ user }) => `user=${user}`,
  visitor: ({ visitor, ip }) => (visitor ? `visitor=${visitor}` : `ip=${ipLimitKey(ip)}`),
  listing: ({ listing }) => `listing=${listing}`,
  tap: ({ tap }) => `tap=${tap}`,
};

/**
 * A limit: its numbers, and the keys it counts under (each a list of parts;
 * every key must allow). `remembersRefusals`: each process remembers a refused
 * key until its window ends (at most REFUSALS_REMEMBERED_MS) and refuses it
 * without asking the store, so a client past the limit costs no store round
 * trip per request. Only for limits nothing gives back (no refund, no reset).
 */
export type LimitDefinition = LimitRule & { per: readonly (readonly KeyPart[])[]; remembersRefusals?: true };

export const DEFAULT_LIMITS = {
  /**
   * Login attempts for one account from one network origin (IPv4 /24, IPv6 /64):
   * reserved before the password is checked, given back on success. Someone
   * else's failures elsewhere never lock the owner out of their own network.
   */
  loginAccount: { max: 5, windowSeconds: 15 * 60, per: [["account", "network"]] },
  /** Login attempts from one IP, whatever the account: reserved up front, given back on success. */
  loginIp: { max: 20, windowSeconds: 15 * 60, per: [["ip"]] },
  /**
   * Failed logins for one account from everywhere: beyond `max` in the window,
   * every attempt on it waits a growing delay (1 s, 2 s, 4 s … at most
   * LOGIN_DELAY_CAP_SECONDS) instead of a lockout anyone could trigger.
   */
  loginAccountSlowdown: { max: 10, windowSeconds: 60 * 60, per: [["account"]] },
  signupIp: { max: 5, windowSeconds: 60 * 60, per: [["ip"]] },
  /** 'Send the link again' for one account's address confirmation (ADR 066); sign-up's own email is free. */
  confirmEmailUser: { max: 3, windowSeconds: 60 * 60, per: [["user"]] },
  /** Password-reset emails to one address. */
  resetEmail: { max: 3, windowSeconds: 60 * 60, per: [["account"]] },
  /** Reports from one network (IPv4 /24, IPv6 /64): another address of the same network is no new reporter. */
  reportIp: { max: 10, windowSeconds: 60 * 60, per: [["network"]] },
  contactIp: { max: 5, windowSeconds: 60 * 60, per: [["ip"]] },
  /**
   * New shortlists (a browser's first save) from one address: generous, since a campus
   * network puts many students behind one address, but a script cannot fill the database.
   */
  shortlistNew: { max: 100, windowSeconds: 60 * 60, per: [["ip"]] },
  /** 'Already let?' answers from one network (IPv4 /24, IPv6 /64): another address of it is no new student. */
  letReportNetwork: { max: 10, windowSeconds: 60 * 60, per: [["network"]] },
  /**
   * 'Already let?' answers that counted, per browser or account (ADR 064): a student hears
   * 'already let' a few times a day at most; a few old cookies must not doubt every listing.
   * Past it an answer is still thanked, but counts for nothing.
   */
  letReportCounted: { max: 5, windowSeconds: 24 * 60 * 60, per: [["visitor"]] },
  /**
   * Emails sent because someone asked for a search alert for an address (the
   * confirmation, or 'already on'), per address and network: a stranger cannot
   * flood an inbox, and their requests do not block the address for anyone
   * asking from another network (ADR 058, 067).
   */
  alertAddress: { max: 3, windowSeconds: 24 * 60 * 60, per: [["account", "network"]] },
  /**
   * The same emails to one address from all networks together: many networks
   * (an IPv6 /48 holds 65,536 /64s) still cannot flood an inbox. Its owner is never
   * blocked by it: a confirmed, signed-in owner of the address sends no email.
   */
  alertAddressAll: { max: 10, windowSeconds: 24 * 60 * 60, per: [["account"]] },
  /** Alert requests that send an email, from one network (IPv4 /24, IPv6 /64). */
  alertNetwork: { max: 10, windowSeconds: 60 * 60, per: [["network"]] },
  /**
   * Phone codes asked for from one network (IPv4 /24, IPv6 /64), whatever the number or
   * account: one script cannot text hundreds of numbers (SMS pumping, ADR 076).
   */
  smsCodeNetwork: { max: 10, windowSeconds: 60 * 60, per: [["network"]] },
  /** Phone codes one account may ask for in a day, whatever the number (ADR 076). */
  smsCodeUser: { max: 8, windowSeconds: 24 * 60 * 60, per: [["user"]] },
  uploadUser: { max: 30, windowSeconds: 60 * 60, per: [["user"]] },
  /** Settings' password change for one account: each try is a guess of the current password (ADR 019). */
  passwordUser: { max: 5, windowSeconds: 15 * 60, per: [["user"]] },
  /**
   * Views one visitor (signed cookie, else IP) may count per hour across all
   * listings, and views one listing may count per hour from one network (ADR 017).
   */
  viewVisitor: {
    max: 60,
    windowSeconds: 60 * 60,
    per: [["visitor"], ["network", "listing"]],
    // A script fetching listing pages without cookies is a new visitor each time: after
    // its 60 views it is refused from memory, not with two store round trips a page (ADR 014).
    remembersRefusals: true,
  },
  /**
   * A tap on 'Call Now', WhatsApp or Viber, or a save, counts once per visitor (signed
   * cookie, else IP) per listing, kind and Colombo day: the key names the day, so a
   * day's window is enough and the hashed key is gone by the next (ADR 089).
   */
  tapVisitor: { max: 1, windowSeconds: 24 * 60 * 60, per: [["visitor", "tap"]] },
  /**
   * The same taps from one network (IPv4 /24, IPv6 /64): a script with many addresses
   * or collected cookies adds at most this many a listing, kind and day (ADR 089).
   */
  tapNetwork: { max: 10, windowSeconds: 24 * 60 * 60, per: [["network", "tap"]] },
} as const satisfies Record<string, LimitDefinition>;

export type LimitName = keyof typeof DEFAULT_LIMITS;
export const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as LimitName[];

/** What a caller passes to a limit: exactly what its key parts need (`{ ip }`, `{ account, ip }`, `{ user }` …). */
export type LimitSubject<N extends LimitName> = UnionToIntersection<
  KeyInputs[(typeof DEFAULT_LIMITS)[N]["per"][number][number]]
>;

/** The keys a limit counts a subject under: only the limiter builds keys. */
function keysOf<N extends LimitName>(name: N, subject: LimitSubject<N>): string[] {
  // LimitSubject<N> holds what N's parts read.
  const input = subject as AnyKeyInput;
  return DEFAULT_LIMITS[name].per.map((parts) => parts.map((part) => KEY_PARTS[part](input)).join(" "));
}

/**
 * A limit's answer. `unavailable`: the store could not be asked (the primary
 * process or Redis is down): the attempt is refused, fail closed, and the
 * person is told to try again shortly rather than that they tried too often.
 */
export type LimitDecision =
  | { ok: true; remaining: number }
  | { ok: false; retryAfterSeconds: number; unavailable?: boolean };

/** How long a refusal for an unreachable store asks the person to wait. */
export const UNAVAILABLE_RETRY_SECONDS = 30;

/** The longest a process refuses a remembered key without asking the store again. */
export const REFUSALS_REMEMBERED_MS = 60_000;
/** Remembered refusals kept per process; when full they are forgotten at once (they are only a shortcut). */
const REFUSALS_KEPT = 10_000;

export type RateLimiter = {
  /**
   * Counts one attempt and says whether it is allowed (the attempt that reaches
   * the limit still is). A refused attempt is not counted and creates no key.
   */
  consume<N extends LimitName>(name: N, subject: LimitSubject<N>): Promise<LimitDecision>;
  /** Says whether one more attempt would be allowed, without counting one (limits on failures only). */
  check<N extends LimitName>(name: N, subject: LimitSubject<N>): Promise<LimitDecision>;
  /**
   * A refusal this process remembers for the subject (limits with
   * `remembersRefusals`), answered at once without the store; null when the
   * store must be asked.
   */
  knownRefusal<N extends LimitName>(name: N, subject: LimitSubject<N>): LimitDecision | null;
  /** Counts an attempt after the fact (a failed login). */
  record<N extends LimitName>(name: N, subject: LimitSubject<N>): Promise<void>;
  /** Counts one attempt whatever the limit and answers the count in the window, or null when the store is unreachable. */
  tally<N extends LimitName>(name: N, subject: LimitSubject<N>): Promise<number | null>;
  /** Gives back one attempt counted by consume() or tally() (a login that succeeded). */
  refund<N extends LimitName>(name: N, subject: LimitSubject<N>): Promise<void>;
  /** At most one attempt per `seconds` for the subject (a growing delay), atomically. */
  space<N extends LimitName>(name: N, subject: LimitSubject<N>, seconds: number): Promise<LimitDecision>;
  reset<N extends LimitName>(name: N, subject: LimitSubject<N>): Promise<void>;
  readonly rules: Record<LimitName, LimitRule>;
};

/**
 * RATE_LIMITS overrides some limits, for example "signupIp=1000,loginIp=50/900"
 * (max, or max/windowSeconds). Unknown names or bad numbers are refused at start-up.
 */
export function parseLimitOverrides(text: string | undefined): Partial<Record<LimitName, LimitRule>> {
  const overrides: Partial<Record<LimitName, LimitRule>> = {};
  for (const part of (text ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([A-Za-z]+)=(\d+)(?:\/(\d+))?$/.exec(part);
    if (!match || !(match[1] in DEFAULT_LIMITS)) {
      throw new Error(
        `RATE_LIMITS: "${part}" is not name=max or name=max/seconds with a name among ${LIMIT_NAMES.join(", ")}`,
      );
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
  const rules = {} as Record<LimitName, LimitDefinition>;
  for (const name of LIMIT_NAMES) rules[name] = { ...DEFAULT_LIMITS[name], ...overrides[name] };
  const storeKey = (name: LimitName, key: string) => `${name}:${key.toLowerCase()}`;
  const retryAfter = (resetAtMs: number, now: number) => Math.max(1, Math.ceil((resetAtMs - now) / 1000));

  /** A store that cannot be reached refuses (fail closed); giving back or resetting is then skipped. */
  const unreachable = { ok: false as const, retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS, unavailable: true };
  async function ask(
    key: string,
    windowMs: number,
    now: number,
    by: number,
    limit?: number,
  ): Promise<StoreCount | null> {
    try {
      return await store.increment(key, windowMs, now, by, limit);
    } catch {
      return null;
    }
  }

  /** Refused keys of limits that remember refusals: until when (ms) this process refuses them unasked. */
  const refusedUntil = new Map<string, number>();

  function rememberedRefusal(key: string, now: number): LimitDecision | null {
    const until = refusedUntil.get(key);
    if (until === undefined) return null;
    if (until > now) return { ok: false, retryAfterSeconds: retryAfter(until, now) };
    refusedUntil.delete(key);
    return null;
  }

  /** A refusal the store gave, remembered when the limit says so. */
  function refused(name: LimitName, key: string, resetAtMs: number, now: number): LimitDecision {
    if (rules[name].remembersRefusals) {
      if (refusedUntil.size >= REFUSALS_KEPT) refusedUntil.clear();
      refusedUntil.set(key, Math.min(resetAtMs, now + REFUSALS_REMEMBERED_MS));
    }
    return { ok: false, retryAfterSeconds: retryAfter(resetAtMs, now) };
  }

  /**
   * Counts this attempt (`by` 1) or only looks (`by` 0), and judges the count
   * the attempt makes: after counting it includes the attempt; when looking,
   * the next attempt would be count + 1.
   */
  async function judgeKey(name: LimitName, key: string, by: 0 | 1): Promise<LimitDecision> {
    const rule = rules[name];
    const now = clock();
    const id = storeKey(name, key);
    const known = rememberedRefusal(id, now);
    if (known) return known;
    const result = await ask(id, rule.windowSeconds * 1000, now, by, by === 1 ? rule.max : undefined);
    if (!result) return unreachable;
    const count = result.count + 1 - by;
    // A store that does not know `limit` counts the refused hit too; the answer is the same.
    if (result.refused || count > rule.max) return refused(name, id, result.resetAtMs, now);
    return { ok: true, remaining: rule.max - count };
  }

  const consumeKey = (name: LimitName, key: string) => judgeKey(name, key, 1);
  const checkKey = (name: LimitName, key: string) => judgeKey(name, key, 0);

  async function tallyKey(name: LimitName, key: string): Promise<number | null> {
    const rule = rules[name];
    const result = await ask(storeKey(name, key), rule.windowSeconds * 1000, clock(), 1);
    return result ? result.count : null;
  }

  async function refundKey(name: LimitName, key: string): Promise<void> {
    const rule = rules[name];
    await ask(storeKey(name, key), rule.windowSeconds * 1000, clock(), -1);
  }

  async function spaceKey(name: LimitName, key: string, seconds: number): Promise<LimitDecision> {
    const now = clock();
    const result = await ask(`${storeKey(name, key)}:spacing`, seconds * 1000, now, 1, 1);
    if (!result) return unreachable;
    if (result.refused || result.count > 1) return { ok: false, retryAfterSeconds: retryAfter(result.resetAtMs, now) };
    return { ok: true, remaining: 0 };
  }

  /** Every key must allow: the first refusal is the answer, else the smallest room left. */
  async function allKeys(keys: string[], decide: (key: string) => Promise<LimitDecision>): Promise<LimitDecision> {
    let answer: LimitDecision | null = null;
    for (const key of keys) {
      const decision = await decide(key);
      if (!decision.ok) return decision;
      if (!answer || (answer.ok && decision.remaining < answer.remaining)) answer = decision;
    }
    return answer ?? { ok: true, remaining: 0 };
  }

  /** Refusals are counted for /metrics (ADR 042). */
  function counted(name: LimitName, decision: LimitDecision): LimitDecision {
    if (!decision.ok) rateLimitRefusals.inc({ limit: name, reason: decision.unavailable ? "unavailable" : "limit" });
    return decision;
  }

  return {
    rules,
    async consume(name, subject) {
      const reserved: string[] = [];
      const decision = await allKeys(keysOf(name, subject), async (key) => {
        const decision = await consumeKey(name, key);
        // A refused attempt counts nowhere: what the other keys counted goes back.
        if (!decision.ok) for (const done of reserved) await refundKey(name, done);
        else reserved.push(key);
        return decision;
      });
      return counted(name, decision);
    },
    check: async (name, subject) => counted(name, await allKeys(keysOf(name, subject), (key) => checkKey(name, key))),
    knownRefusal(name, subject) {
      if (!rules[name].remembersRefusals || refusedUntil.size === 0) return null;
      const now = clock();
      for (const key of keysOf(name, subject)) {
        const known = rememberedRefusal(storeKey(name, key), now);
        if (known) return counted(name, known);
      }
      return null;
    },
    async record(name, subject) {
      for (const key of keysOf(name, subject)) await tallyKey(name, key);
    },
    async tally(name, subject) {
      let highest: number | null = 0;
      for (const key of keysOf(name, subject)) {
        const count = await tallyKey(name, key);
        highest = count === null || highest === null ? null : Math.max(highest, count);
      }
      return highest;
    },
    async refund(name, subject) {
      for (const key of keysOf(name, subject)) await refundKey(name, key);
    },
    space: async (name, subject, seconds) =>
      counted(name, await allKeys(keysOf(name, subject), (key) => spaceKey(name, key, seconds))),
    async reset(name, subject) {
      for (const key of keysOf(name, subject)) {
        refusedUntil.delete(storeKey(name, key));
        await store.reset(storeKey(name, key)).catch(() => undefined);
      }
    },
  };
}

/** Headers for a refused request: Retry-After in seconds, never cached. */
export function retryAfterHeaders(decision: { retryAfterSeconds: number }): HeadersInit {
  return { "Retry-After": String(decision.retryAfterSeconds), "Cache-Control": "no-store" };
}
