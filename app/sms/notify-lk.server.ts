import { type GatewayAccount, post, SmsError, type TextProvider } from "./gateway.server";

/**
 * Notify.lk's documented send endpoint (https://developer.notify.lk/api-endpoints/):
 * user_id, api_key, sender_id, to (94XXXXXXXXX, no plus), message, and
 * type=unicode for Sinhala and Tamil. It answers JSON
 * { "status": "success", "data": "Sent" } or a status of "error" with a message.
 * Sent as a POST form, so the key stays out of any proxy's request log.
 * SMS_URL: notifylk://USER_ID:API_KEY@SENDER_ID.
 */
export function createNotifyLk(account: GatewayAccount): TextProvider {
  return {
    kind: "text",
    name: "notifylk",
    async send({ to, text, unicode }) {
      const body = new URLSearchParams({
        user_id: account.user,
        api_key: account.secret,
        sender_id: account.name,
        to: to.replace(/^\+/, ""),
        message: text,
      });
      if (unicode) body.set("type", "unicode");
      const response = await post(account.endpoint, body);
      const answer = (await response.json().catch(() => null)) as { status?: string; message?: string } | null;
      if (!response.ok || answer?.status !== "success")
        throw new SmsError(`Notify.lk refused the SMS (HTTP ${response.status}): ${answer?.message ?? "no answer"}`);
    },
  };
}
