import type { Logger } from "pino";
import type { DB } from "~/db/db.server";
import { SmsError, type SmsProvider } from "./gateway.server";
import { createNotifyLk } from "./notify-lk.server";
import { createOutboxSink } from "./outbox-sink.server";
import { createTwilioVerify } from "./twilio-verify.server";

export type { SmsProvider, TextMessage, TextProvider, VerifyProvider } from "./gateway.server";
export { SmsError } from "./gateway.server";

/** An SMS_URL's own endpoint (`?endpoint=`, for a local test gateway), else the gateway's public one. */
function endpointOf(url: URL, fallback: string): string {
  return (url.searchParams.get("endpoint") ?? fallback).replace(/\/+$/, "");
}

/**
 * The provider an SMS_URL names:
 * - notifylk://USER_ID:API_KEY@SENDER_ID (Notify.lk's HTTP API),
 * - twilio-verify://ACCOUNT_SID:AUTH_TOKEN@SERVICE_SID (Twilio Verify),
 * - outbox: (texts kept in the outbox table for /dev/outbox; never on a public site).
 */
export function smsProviderFor(smsUrl: string, db: DB, log?: Logger): SmsProvider {
  if (smsUrl === "outbox:") return createOutboxSink(db, log);
  const url = new URL(smsUrl);
  const user = decodeURIComponent(url.username);
  const secret = decodeURIComponent(url.password);
  const name = decodeURIComponent(url.hostname);
  if (url.protocol === "notifylk:")
    return createNotifyLk({
      userId: user,
      apiKey: secret,
      senderId: name,
      endpoint: endpointOf(url, "https://app.notify.lk/api/v1/send"),
    });
  if (url.protocol === "twilio-verify:")
    return createTwilioVerify({
      accountSid: user,
      authToken: secret,
      serviceSid: name,
      endpoint: endpointOf(url, "https://verify.twilio.com"),
    });
  throw new SmsError(`SMS_URL: unknown scheme ${url.protocol}`);
}
