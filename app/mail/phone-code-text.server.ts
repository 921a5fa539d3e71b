import { translatorFor } from "~/i18n/translator.server";
import type { CodeText } from "~/models/phone-confirmation.server";
import "virtual:catalogue/mail";

/**
 * A phone code's text in the owner's language (ADR 076). Sinhala and Tamil go
 * as Unicode SMS: their letters are outside the GSM alphabet.
 */
export const phoneCodeText: CodeText = (locale, code) => {
  const t = translatorFor(locale);
  const text = t("mail.phoneCode.text", { code });
  // Anything past ASCII (the GSM alphabet has few more letters, and none of ours) needs Unicode.
  return { text, unicode: [...text].some((letter) => letter.charCodeAt(0) > 0x7f) };
};
