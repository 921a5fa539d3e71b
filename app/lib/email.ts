/**
 * An email address as accounts, alerts and limits compare it: without the
 * spaces around it and in lower case (addresses are case-insensitive in
 * practice, and better-auth stores them lower-cased).
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
