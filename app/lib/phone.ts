/**
 * Sri Lankan phone numbers in E.164 (+94 and the 9-digit national number),
 * read from what people type: the local 10-digit form 07X XXX XXXX (what the
 * site shows), +94…, 0094… or 94…, with spaces, dashes, dots, brackets or a
 * "(0)" after the country code. Only mobiles (+94 7x) can get a text message
 * (ADR 076).
 */

/** The mobile networks' prefixes (070–072, 074–078): numbers an SMS can reach. */
const MOBILE = /^7[0-24-8]\d{7}$/;

export type SriLankanPhone = {
  /** +94 and the 9-digit national number, e.g. +94771234567. */
  e164: string;
  /** A mobile number (+94 7x) that can receive a text message. */
  mobile: boolean;
};

/** The number in E.164 with whether it is a mobile, or null when it is no Sri Lankan number. */
export function parseSriLankanPhone(typed: string): SriLankanPhone | null {
  const compact = typed.replace(/\(0\)/g, "").replace(/[\s().-]/g, "");
  const match = /^(?:\+94|0094|94|0)([1-9]\d{8})$/.exec(compact);
  if (!match) return null;
  return { e164: `+94${match[1]}`, mobile: MOBILE.test(match[1]) };
}

/** The E.164 form of a Sri Lankan number as typed, or null when it is none. */
export function toE164(typed: string): string | null {
  return parseSriLankanPhone(typed)?.e164 ?? null;
}

/** The E.164 form of a Sri Lankan mobile number as typed, or null when it is no mobile. */
export function mobileE164(typed: string): string | null {
  const phone = parseSriLankanPhone(typed);
  return phone?.mobile ? phone.e164 : null;
}

/** The local 10-digit form people type and read (0771234567) of an E.164 Sri Lankan number. */
export function localPhone(e164: string): string {
  return e164.startsWith("+94") ? `0${e164.slice(3)}` : e164;
}
