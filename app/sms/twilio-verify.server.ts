import { type GatewayAccount, post, SmsError, type VerifyProvider } from "./gateway.server";

/**
 * Twilio Verify (https://www.twilio.com/docs/verify/api): POST
 * /v2/Services/{ServiceSid}/Verifications (To, Channel=sms, Locale) texts a
 * code Twilio makes; POST /v2/Services/{ServiceSid}/VerificationCheck (To, Code)
 * answers { "status": "approved" } for the right code and 404 when no
 * verification is pending. HTTP Basic with the account SID and auth token.
 * A Locale Twilio does not speak is a 404: it is asked again without one
 * (Twilio then picks the number's country's language, or English).
 * SMS_URL: twilio-verify://ACCOUNT_SID:AUTH_TOKEN@SERVICE_SID.
 */
export function createTwilioVerify(account: GatewayAccount): VerifyProvider {
  const base = `${account.endpoint}/v2/Services/${encodeURIComponent(account.name)}`;
  const auth = { Authorization: `Basic ${Buffer.from(`${account.user}:${account.secret}`).toString("base64")}` };
  const refused = async (response: Response, what: string) => {
    const answer = (await response.json().catch(() => null)) as { message?: string } | null;
    return new SmsError(`Twilio Verify refused the ${what} (HTTP ${response.status}): ${answer?.message ?? ""}`);
  };
  return {
    kind: "verify",
    name: "twilio-verify",
    async start(to, locale) {
      const body = new URLSearchParams({ To: to, Channel: "sms", Locale: locale });
      let response = await post(`${base}/Verifications`, body, auth);
      if (response.status === 404) {
        body.delete("Locale");
        response = await post(`${base}/Verifications`, body, auth);
      }
      if (!response.ok) throw await refused(response, "verification");
    },
    async check(to, code) {
      const response = await post(`${base}/VerificationCheck`, new URLSearchParams({ To: to, Code: code }), auth);
      if (response.status === 404) return false;
      if (!response.ok) throw await refused(response, "check");
      const answer = (await response.json()) as { status?: string };
      return answer.status === "approved";
    },
  };
}
