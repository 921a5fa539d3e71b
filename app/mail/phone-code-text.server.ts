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
  return { text, unicode: /[^\u0000-\u007f]/.test(text) };
};
