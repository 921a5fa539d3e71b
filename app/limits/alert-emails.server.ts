import type { LimitDecision, RateLimiter } from "./rate-limit.server";

/**
 * May we send an address the email someone just asked for (an alert's
 * confirmation, 'already on', a fresh manage link)? The limits in order, per
 * network, per address and network, per address (ADR 058, 067), stopping at the
 * first refusal: a request refused for its network must not spend the
 * address's allowance for everyone else.
 */
export async function alertEmailAllowed(limiter: RateLimiter, email: string, ip: string): Promise<LimitDecision> {
  const checks = [
    () => limiter.consume("alertNetwork", { ip }),
    () => limiter.consume("alertAddress", { account: email, ip }),
    () => limiter.consume("alertAddressAll", { account: email }),
  ];
  let last: LimitDecision = { ok: true, remaining: 0 };
  for (const check of checks) {
    last = await check();
    if (!last.ok) return last;
  }
  return last;
}
