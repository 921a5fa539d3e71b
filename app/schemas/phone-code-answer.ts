import type { PhoneCodeConfirmCode, PhoneCodeRequestCode } from "./result";

/**
 * What POST /dashboard/phone-code answers the post form's phone field in JSON
 * (ADR 076): a code sent, the number confirmed (now or before), or why not,
 * with the values its words need. The browser says it in its own catalogue
 * (PHONE_CODE_MESSAGES).
 */
export type PhoneCodeAnswer =
  | { ok: true; status: "sent" | "confirmed"; phone: string }
  | {
      ok: false;
      code: PhoneCodeRequestCode | PhoneCodeConfirmCode | "signedOut" | "origin";
      values?: Record<string, number>;
    };

/** The answers a code request or check can put in My Ads' address, without JavaScript (the 180-day banner). */
export const PHONE_CODE_NOTICES = ["sent", "confirmed"] as const;
