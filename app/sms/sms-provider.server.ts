import type { Logger } from "pino";
import type { DB } from "~/db/db.server";
import { type GatewayAccount, SmsError, type SmsProvider } from "./gateway.server";
import { createNotifyLk } from "./notify-lk.server";
import { createOutboxSink } from "./outbox-sink.server";
import { createTwilioVerify } from "./twilio-verify.server";

export type { SmsProvider, TextMessage, TextProvider, VerifyProvider } from "./gateway.server";
export { SmsError } from "./gateway.server";

/** Each gateway's adapter and public endpoint, by SMS_URL scheme. */
const GATEWAYS: Record<string, { make: (account: GatewayAccount) => SmsProvider; endpoint: string }> = {
  "notifylk:": { make: createNotifyLk, endpoint: "https://app.notify.lk/api/v1/send" },
  "twilio-verify:": { make: createTwilioVerify, endpoint: "https://verify.twilio.com" },
};

/**
 * The provider an SMS_URL names:
 * - notifylk://USER_ID:API_KEY@SENDER_ID (Notify.lk's HTTP API),
 * - twilio-verify://ACCOUNT_SID:AUTH_TOKEN@SERVICE_SID (Twilio Verify),
 * - outbox: (texts kept in the outbox table for /dev/outbox; never on a public site).
 * A gateway's `?endpoint=` replaces its public address (the tests' local server).
 */
export function smsProviderFor(smsUrl: string, db: DB, log?: Logger): SmsProvider {
  if (smsUrl === "outbox:") return createOutboxSink(db, log);
  const url = new URL(smsUrl);
  const gateway = GATEWAYS[url.protocol];
  if (!gateway) throw new SmsError(`SMS_URL: unknown scheme ${url.protocol}`);
  return gateway.make({
    user: decodeURIComponent(url.username),
    secret: decodeURIComponent(url.password),
    name: decodeURIComponent(url.hostname),
    endpoint: (url.searchParams.get("endpoint") ?? gateway.endpoint).replace(/\/+$/, ""),
  });
}
