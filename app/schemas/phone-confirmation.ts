import type { MessageKey } from "~/i18n/keys.generated";
import type { PhoneCodeConfirmCode, PhoneCodeRequestCode } from "./result";
import "virtual:catalogue/listing-form";

/**
 * The words for each answer of phone confirmation (ADR 076), in the post form's
 * catalogue (listingForm.phoneConfirm.*). Values: `minutes` or `hours` for a limit,
 * `triesLeft` for a wrong code, `phone` (the local form) for a sent code.
 */
export const PHONE_CODE_MESSAGES: Record<PhoneCodeRequestCode | PhoneCodeConfirmCode, MessageKey> = {
  "phone.not_mobile": "listingForm.phoneConfirm.notMobile",
  "phone.off": "listingForm.phoneConfirm.off",
  "phone.taken": "listingForm.phoneConfirm.taken",
  "phone.limited_number": "listingForm.phoneConfirm.limitedNumber",
  "phone.limited_number_day": "listingForm.phoneConfirm.limitedNumberDay",
  "phone.limited_network": "listingForm.phoneConfirm.limitedNetwork",
  "phone.limited_account": "listingForm.phoneConfirm.limitedAccount",
  "phone.budget_exhausted": "listingForm.phoneConfirm.budgetExhausted",
  "phone.unavailable": "listingForm.phoneConfirm.unavailable",
  "phone.code_wrong": "listingForm.phoneConfirm.codeWrong",
  "phone.code_expired": "listingForm.phoneConfirm.codeExpired",
};

/** The words for a code sent, and for a number confirmed (with `date`). */
export const PHONE_CODE_SENT: MessageKey = "listingForm.phoneConfirm.sent";
export const PHONE_CONFIRMED: MessageKey = "listingForm.phoneConfirm.confirmed";
