// What every SMS provider is (ADR 075), and the one way they speak HTTP.

/**
 * Where one-time codes go (ADR 075). Two shapes, because gateways differ in who
 * holds the code:
 * - `text`: a plain SMS gateway (Notify.lk) or the development outbox: we make
 *   the code, keep its hash and send the words we wrote, in the owner's language;
 * - `verify`: a verification service (Twilio Verify) that makes, sends and
 *   checks the code itself; we still count tries, expiry and every limit.
 * A failed request throws SmsError; the caller tells the person to try later.
 */
export type TextMessage = {
  /** E.164, e.g. +94771234567. */
  to: string;
  text: string;
  /** Sinhala and Tamil need Unicode SMS (shorter parts, but their letters arrive). */
  unicode: boolean;
};

export type TextProvider = {
  kind: "text";
  name: "notifylk" | "outbox";
  send(message: TextMessage): Promise<void>;
};

export type VerifyProvider = {
  kind: "verify";
  name: "twilio-verify";
  /** Asks the service to text a new code to `to` in `locale` (en, si, ta) where it speaks it. */
  start(to: string, locale: string): Promise<void>;
  /** Whether `code` is the service's live code for `to`. */
  check(to: string, code: string): Promise<boolean>;
};

export type SmsProvider = TextProvider | VerifyProvider;

/** What an SMS_URL names: user and secret (its credentials), name (sender or service id), endpoint. */
export type GatewayAccount = { user: string; secret: string; name: string; endpoint: string };

/** A gateway refused or could not be reached; the message is for the log, never for the person. */
export class SmsError extends Error {
  override name = "SmsError";
}

/** A gateway's answer within 15 seconds, or SmsError: a hung gateway must not hold a request. */
export async function post(url: string, body: URLSearchParams, headers: Record<string, string> = {}) {
  try {
    return await fetch(url, {
      method: "POST",
      body,
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json", ...headers },
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new SmsError(`SMS gateway unreachable: ${(error as Error).message}`);
  }
}
