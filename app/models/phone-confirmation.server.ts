import { createHmac, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import type { ExpressionBuilder } from "kysely";
import type { Logger } from "pino";
import { invalidatePublicPages } from "~/cache/invalidation.server";
import type { DB } from "~/db/db.server";
import { lockName } from "~/db/locks.server";
import type { Database } from "~/db/schema";
import { currentTime } from "~/lib/clock";
import { mobileE164, toE164 } from "~/lib/phone";
import type { RateLimiter } from "~/limits/rate-limit.server";
import type { PhoneCodeConfirmCode, PhoneCodeRequestCode, Result } from "~/schemas/result";
import { fail } from "~/schemas/result";
import { SmsError, type SmsProvider } from "~/sms/sms-provider.server";
import { countLiveAdsForPhone, numberHeldByAnother, phoneLock } from "./phone-holders.server";
import { spendSmsBudget } from "./sms-budget.server";

/**
 * Phones confirmed by a one-time code (ADR 076): the owner asks for a code,
 * it is texted to the number, and entering it records that this account
 * confirmed this number on this date. Built once per server
 * (app/services.server.ts `phones`); the post form asks it.
 */

/** The rules of ADR 076; tests may set other numbers. */
export const PHONE_CODE_RULES = {
  /** Minutes a code is good for. */
  validMinutes: 10,
  /** Checks per code: the third wrong one spends it. */
  maxTries: 3,
  /** Codes to one number in 10 minutes, and in 24 hours, from all accounts together. */
  perNumberTenMinutes: 3,
  perNumberDay: 5,
  /** Days a confirmation lasts; then the owner confirms again and the badge lapses until they do. */
  confirmationDays: 180,
};
export type PhoneCodeRules = typeof PHONE_CODE_RULES;

/** The words of a code's text in the owner's language (app/mail/phone-code-text.server.ts). */
export type CodeText = (locale: string, code: string) => { text: string; unicode: boolean };

export type PhoneConfirmationDeps = {
  db: DB;
  /** undefined: no SMS provider, phone confirmation is off. */
  sms: SmsProvider | undefined;
  limiter: RateLimiter;
  /** Keys the HMAC the codes are stored as (the session secret). */
  secret: string;
  /** Texts the site may send in one UTC day (SMS_DAILY_BUDGET). */
  dailyBudget: number;
  codeText: CodeText;
  log?: Logger;
  clock?: () => Date;
  rules?: Partial<PhoneCodeRules>;
};

export type Confirmation = { phone: string; confirmedAt: string; lapsesAt: string };

export type RequestCodeResult = Result<
  PhoneCodeRequestCode,
  { status: "sent"; phone: string; expiresAt: string } | ({ status: "alreadyConfirmed" } & Confirmation)
>;
export type ConfirmCodeResult = Result<PhoneCodeConfirmCode, Confirmation>;

export type PhoneConfirmation = {
  /** Whether codes can be sent at all; off: no provider, and ads carry no phone badge. */
  enabled: boolean;
  /**
   * Texts a new code to `phone` (as typed) for `account`, asked from address `ip`, in
   * `locale`, unless a rule says no: not a mobile, already confirmed by this
   * account (no code needed), held by another account, a limit, the daily budget.
   */
  requestCode(account: { id: string }, phone: string, ip: string, locale: string): Promise<RequestCodeResult>;
  /** Checks `code` for the account's latest code to `phone` and, when right, records the confirmation. */
  confirmCode(account: { id: string }, phone: string, code: string): Promise<ConfirmCodeResult>;
  /** The account's standing confirmation of `phone` (confirmed in the last 180 days, not taken over), or null. */
  isConfirmed(account: { id: string }, phone: string, now?: Date): Promise<Confirmation | null>;
  /** Live ads (countLiveAdsForPhone) with this Sri Lankan number (as typed), across all accounts; 0 for any other number. */
  countLiveAds(phone: string, now?: Date): Promise<number>;
};

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

function hashCode(secret: string, id: string, code: string): string {
  return createHmac("sha256", secret).update(`phone-code\n${id}\n${code}`).digest("hex");
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * What makes a confirmation stand at `now` (ADR 076): not taken over by another
 * account, and made within the last `days`. The one rule for the post form, the
 * listing page's checks and browse's 'Phone confirmed only' (listing-checks.server.ts),
 * which match it to an owner and a number on the (userId, phone, confirmedAt) index.
 */
export function standsAt(
  eb: ExpressionBuilder<Database, "phone_confirmations">,
  now: Date,
  days: number = PHONE_CODE_RULES.confirmationDays,
) {
  const since = new Date(now.getTime() - days * DAY_MS).toISOString();
  return eb.and([eb("phone_confirmations.endedAt", "is", null), eb("phone_confirmations.confirmedAt", ">", since)]);
}

/** A standing confirmation of `phone` by `userId` at `now`, or null. */
async function standingConfirmation(
  db: DB,
  userId: string,
  phone: string,
  now: Date,
  days: number,
): Promise<Confirmation | null> {
  const row = await db
    .selectFrom("phone_confirmations")
    .select("confirmedAt")
    .where("userId", "=", userId)
    .where("phone", "=", phone)
    .where((eb) => standsAt(eb, now, days))
    .orderBy("confirmedAt", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const lapsesAt = new Date(Date.parse(row.confirmedAt) + days * DAY_MS).toISOString();
  return { phone, confirmedAt: row.confirmedAt, lapsesAt };
}

/**
 * When `userId`'s standing confirmation of `phone` (E.164) lapses, or null:
 * what their listing with that number stores as `phoneConfirmedUntil` for
 * browse's 'Phone confirmed only' (ADR 084) when it is posted or edited.
 */
export async function confirmedUntil(
  db: DB,
  userId: string,
  phone: string | null,
  now: Date,
  days: number = PHONE_CODE_RULES.confirmationDays,
): Promise<string | null> {
  if (phone === null) return null;
  return (await standingConfirmation(db, userId, phone, now, days))?.lapsesAt ?? null;
}

/**
 * Records that `userId` confirmed `phone` (E.164) at `at`, as a right code
 * does (ADR 076): another account's confirmation of the number ends, and the
 * listings with the number follow for browse's filter (ADR 084): the
 * confirming owner's lapse `days` later, every other owner's have none.
 * Callers hold the number's lock (claim).
 */
export async function recordConfirmation(
  trx: DB,
  userId: string,
  phone: string,
  at: Date,
  days: number = PHONE_CODE_RULES.confirmationDays,
): Promise<void> {
  const confirmedAt = at.toISOString();
  await trx
    .updateTable("phone_confirmations")
    .set({ endedAt: confirmedAt })
    .where("phone", "=", phone)
    .where("userId", "!=", userId)
    .where("endedAt", "is", null)
    .execute();
  await trx
    .insertInto("phone_confirmations")
    .values({ id: randomUUID(), userId, phone, confirmedAt, endedAt: null })
    .execute();
  const lapsesAt = new Date(at.getTime() + days * DAY_MS).toISOString();
  await trx
    .updateTable("listings")
    .set((eb) => ({
      phoneConfirmedUntil: eb.case().when("userId", "=", userId).then(lapsesAt).else(null).end(),
    }))
    .where("contactPhoneE164", "=", phone)
    .execute();
}

export function createPhoneConfirmation(deps: PhoneConfirmationDeps): PhoneConfirmation {
  const { db, sms, limiter, secret } = deps;
  const rules = { ...PHONE_CODE_RULES, ...deps.rules };
  const clock = deps.clock ?? currentTime;
  const minutesUntil = (at: number, now: Date) => ({
    minutes: Math.max(1, Math.ceil((at - now.getTime()) / MINUTE_MS)),
  });
  const hoursUntil = (at: number, now: Date) => ({
    hours: Math.max(1, Math.ceil((at - now.getTime()) / (60 * MINUTE_MS))),
  });

  /**
   * Under the number's lock: the per-number caps, then the budget, then the
   * code's row. Answers the code, or why none may be sent.
   */
  function issueCode(userId: string, phone: string, now: Date) {
    return db.transaction().execute(async (trx) => {
      await lockName(trx, phoneLock(phone));
      const recent = await trx
        .selectFrom("phone_codes")
        .select("createdAt")
        .where("phone", "=", phone)
        .where("createdAt", ">", new Date(now.getTime() - DAY_MS).toISOString())
        .orderBy("createdAt", "desc")
        .execute();
      const tenMinutesAgo = now.getTime() - 10 * MINUTE_MS;
      const lastTen = recent.filter((row) => Date.parse(row.createdAt) > tenMinutesAgo);
      if (lastTen.length >= rules.perNumberTenMinutes) {
        const oldest = Date.parse(lastTen[rules.perNumberTenMinutes - 1].createdAt);
        return fail("phone.limited_number", { values: minutesUntil(oldest + 10 * MINUTE_MS, now) });
      }
      if (recent.length >= rules.perNumberDay) {
        const oldest = Date.parse(recent[rules.perNumberDay - 1].createdAt);
        return fail("phone.limited_number_day", { values: hoursUntil(oldest + DAY_MS, now) });
      }
      if (!(await spendSmsBudget(trx, now, deps.dailyBudget))) return fail("phone.budget_exhausted");
      const id = randomUUID();
      const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
      const expiresAt = new Date(now.getTime() + rules.validMinutes * MINUTE_MS).toISOString();
      await trx
        .insertInto("phone_codes")
        .values({
          id,
          userId,
          phone,
          // A verify service keeps its own code (ADR 075): ours is never sent, so none is stored.
          codeHash: sms?.kind === "text" ? hashCode(secret, id, code) : null,
          createdAt: now.toISOString(),
          expiresAt,
          usedAt: null,
        })
        .execute();
      return { ok: true as const, id, code, expiresAt };
    });
  }

  /** Records the confirmation under the number's lock, unless another account holds the number by now. */
  function claim(userId: string, phone: string, codeId: string, now: Date): Promise<ConfirmCodeResult> {
    return db.transaction().execute(async (trx) => {
      await lockName(trx, phoneLock(phone));
      const at = now.toISOString();
      await trx.updateTable("phone_codes").set({ usedAt: at }).where("id", "=", codeId).execute();
      if (await numberHeldByAnother(trx, userId, phone, now)) return fail("phone.taken");
      const standing = await standingConfirmation(trx, userId, phone, now, rules.confirmationDays);
      // The same code sent twice at once (a double tap): the first one recorded it.
      if (standing) return { ok: true, ...standing };
      await recordConfirmation(trx, userId, phone, now, rules.confirmationDays);
      // The ads with this number now say who confirmed it, and when (ADR 080): their pages, and browse.
      const ads = await trx.selectFrom("listings").select("id").where("contactPhoneE164", "=", phone).execute();
      if (ads.length > 0)
        await invalidatePublicPages(
          trx,
          ads.map((ad) => ad.id),
          now,
        );
      return { ok: true, ...(await standingConfirmation(trx, userId, phone, now, rules.confirmationDays))! };
    });
  }

  /** Whether `code` is right for the code row; a gateway failure throws SmsError. */
  async function codeIsRight(row: { id: string; codeHash: string | null }, phone: string, code: string) {
    if (!sms) return false;
    if (sms.kind === "verify") return sms.check(phone, code);
    return row.codeHash !== null && sameHash(row.codeHash, hashCode(secret, row.id, code));
  }

  return {
    enabled: sms !== undefined,

    async requestCode(account, typed, ip, locale) {
      const phone = mobileE164(typed);
      if (!phone) return fail("phone.not_mobile");
      if (!sms) return fail("phone.off");
      const now = clock();
      const standing = await standingConfirmation(db, account.id, phone, now, rules.confirmationDays);
      if (standing) return { ok: true, status: "alreadyConfirmed", ...standing };
      if (await numberHeldByAnother(db, account.id, phone, now)) return fail("phone.taken");
      const byAccount = await limiter.consume("smsCodeUser", { user: account.id });
      // A limit store that cannot be asked (Redis down) refuses: fail closed, in the words of a short wait.
      if (!byAccount.ok && byAccount.unavailable) return fail("phone.unavailable");
      if (!byAccount.ok)
        return fail("phone.limited_account", {
          values: hoursUntil(now.getTime() + byAccount.retryAfterSeconds * 1000, now),
        });
      const byNetwork = await limiter.consume("smsCodeNetwork", { ip });
      if (!byNetwork.ok && byNetwork.unavailable) return fail("phone.unavailable");
      if (!byNetwork.ok)
        return fail("phone.limited_network", {
          values: minutesUntil(now.getTime() + byNetwork.retryAfterSeconds * 1000, now),
        });
      const issued = await issueCode(account.id, phone, now);
      if (!issued.ok) return issued;
      try {
        if (sms.kind === "verify") await sms.start(phone, locale);
        else await sms.send({ to: phone, ...deps.codeText(locale, issued.code) });
      } catch (error) {
        if (!(error instanceof SmsError)) throw error;
        deps.log?.warn({ err: error, provider: sms.name }, "a phone code could not be sent");
        return fail("phone.unavailable");
      }
      return { ok: true, status: "sent", phone, expiresAt: issued.expiresAt };
    },

    async confirmCode(account, typed, typedCode) {
      const phone = mobileE164(typed);
      if (!phone) return fail("phone.not_mobile");
      if (!sms) return fail("phone.off");
      const now = clock();
      const latest = await db
        .selectFrom("phone_codes")
        .select(["id", "codeHash", "tries", "expiresAt", "usedAt"])
        .where("userId", "=", account.id)
        .where("phone", "=", phone)
        .orderBy("createdAt", "desc")
        .limit(1)
        .executeTakeFirst();
      if (!latest || latest.usedAt !== null || latest.expiresAt <= now.toISOString()) return fail("phone.code_expired");
      const code = typedCode.replace(/\s/g, "");
      if (!/^\d{6}$/.test(code))
        return fail("phone.code_wrong", { values: { triesLeft: Math.max(0, rules.maxTries - latest.tries) } });
      // The try is counted before the code is compared, atomically: parallel guesses cannot share one.
      const counted = await db
        .updateTable("phone_codes")
        .set((eb) => ({ tries: eb("tries", "+", 1) }))
        .where("id", "=", latest.id)
        .where("tries", "<", rules.maxTries)
        .where("usedAt", "is", null)
        .executeTakeFirst();
      if (Number(counted.numUpdatedRows) !== 1) return fail("phone.code_expired");
      let right: boolean;
      try {
        right = await codeIsRight(latest, phone, code);
      } catch (error) {
        if (!(error instanceof SmsError)) throw error;
        deps.log?.warn({ err: error, provider: sms.name }, "a phone code could not be checked");
        await db
          .updateTable("phone_codes")
          .set((eb) => ({ tries: eb("tries", "-", 1) }))
          .where("id", "=", latest.id)
          .execute();
        return fail("phone.unavailable");
      }
      if (!right) {
        const row = await db.selectFrom("phone_codes").select("tries").where("id", "=", latest.id).executeTakeFirst();
        return fail("phone.code_wrong", {
          values: { triesLeft: Math.max(0, rules.maxTries - (row?.tries ?? rules.maxTries)) },
        });
      }
      return claim(account.id, phone, latest.id, now);
    },

    async isConfirmed(account, typed, now = clock()) {
      const phone = mobileE164(typed);
      return phone ? standingConfirmation(db, account.id, phone, now, rules.confirmationDays) : null;
    },

    async countLiveAds(typed, now = clock()) {
      const phone = toE164(typed);
      return phone ? countLiveAdsForPhone(db, phone, now) : 0;
    },
  };
}
