import type { RateLimiter } from "./rate-limit.server";

/** The longest an account-wide delay grows to (ADR 016). */
export const LOGIN_DELAY_CAP_SECONDS = 60;

export type LoginOutcome = "success" | "failure" | "error";

export type LoginReservation =
  | { ok: true; settle(outcome: LoginOutcome): Promise<void> }
  | { ok: false; retryAfterSeconds: number; unavailable?: boolean };

/**
 * Reserves one login attempt before the password is looked at (ADR 016):
 *
 * 1. `loginIp`: attempts from this IP (IPv6 per /64), any account. Counted now,
 *    so a parallel burst for many emails cannot all pass before the first failure.
 * 2. `loginAccount`: attempts on this account from this network origin (IPv4
 *    /24, IPv6 /64). Failures lock only that pair: an attacker elsewhere cannot
 *    lock the owner out of their own network.
 * 3. `loginAccountSlowdown`: failures on this account from everywhere. Beyond
 *    its `max`, attempts on the account are spaced by a delay that doubles with
 *    every further failure (1 s, 2 s, 4 s, … LOGIN_DELAY_CAP_SECONDS): many
 *    networks together guess slowly, and the owner waits seconds, not 15 minutes.
 *
 * A refused attempt gives back what it had reserved, so it costs no hash and
 * counts nowhere. `settle` says how the attempt ended: a success gives the
 * reservations back (and clears the pair's failures), a failure keeps them, an
 * error (the database was down) gives them back.
 */
export async function reserveLoginAttempt(
  limiter: RateLimiter,
  email: string,
  clientIp: string,
): Promise<LoginReservation> {
  const ip = { ip: clientIp };
  const pair = { account: email, ip: clientIp };
  const account = { account: email };

  const fromIp = await limiter.consume("loginIp", ip);
  if (!fromIp.ok) return fromIp;
  const fromPair = await limiter.consume("loginAccount", pair);
  if (!fromPair.ok) {
    await limiter.refund("loginIp", ip);
    return fromPair;
  }
  const giveBack = async (slowdown: boolean) => {
    await limiter.refund("loginIp", ip);
    await limiter.refund("loginAccount", pair);
    if (slowdown) await limiter.refund("loginAccountSlowdown", account);
  };

  const failures = await limiter.tally("loginAccountSlowdown", account);
  if (failures === null) {
    await giveBack(false);
    return { ok: false, retryAfterSeconds: LOGIN_DELAY_CAP_SECONDS };
  }
  const free = limiter.rules.loginAccountSlowdown.max;
  if (failures > free) {
    const delay = Math.min(2 ** Math.min(failures - free - 1, 30), LOGIN_DELAY_CAP_SECONDS);
    const spaced = await limiter.space("loginAccountSlowdown", account, delay);
    if (!spaced.ok) {
      await giveBack(true);
      return spaced;
    }
  }

  return {
    ok: true,
    async settle(outcome) {
      if (outcome === "failure") return;
      await giveBack(true);
      if (outcome === "success") await limiter.reset("loginAccount", pair);
    },
  };
}
