/**
 * A honeypot (ADR 007): a form field people never see or reach with the
 * keyboard, which bots that fill every field fill. Shared by the sign-up and
 * contact forms (components/forms/honeypot-field.tsx draws it).
 */
export const HONEYPOT_FIELD = "website";

export function isHoneypotFilled(form: FormData): boolean {
  const value = form.get(HONEYPOT_FIELD);
  return value !== null && (typeof value !== "string" || value.trim() !== "");
}
