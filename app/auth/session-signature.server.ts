import { createHmac, timingSafeEqual } from "node:crypto";
import { SESSION_COOKIE_NAME } from "./session-cookie";

/**
 * Whether a request carries a session cookie this site signed: better-auth
 * writes `{token}.{signature}` (URL-encoded), the signature being the
 * base64 HMAC-SHA256 of the token with the app's secret (better-call's
 * `signCookieValue`), and reads back only a cookie whose signature checks.
 * The page cache asks this before it lets a request skip it (ADR 012): a
 * made-up `bodima.session_token=x` costs a render otherwise, and renders
 * are what a flood of them is after. Only a real session's cookie passes;
 * whether that session still exists is the database's answer, later.
 */
export function hasSignedSessionCookie(cookieHeader: string | null | undefined, secret: string): boolean {
  if (!cookieHeader) return false;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    if (name !== SESSION_COOKIE_NAME && name !== `__Secure-${SESSION_COOKIE_NAME}`) continue;
    if (isSigned(part.slice(eq + 1).trim(), secret)) return true;
  }
  return false;
}

/** A session token as better-auth signs it into the cookie: `{token}.{signature}`, before URL-encoding. */
export function signedSessionToken(token: string, secret: string): string {
  return `${token}.${signature(token, secret)}`;
}

function signature(token: string, secret: string): string {
  return createHmac("sha256", secret).update(token).digest("base64");
}

/** better-call's signature: 32 bytes in standard base64, always 44 characters ending in "=". */
const SIGNATURE_LENGTH = 44;

function isSigned(raw: string, secret: string): boolean {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return false;
  }
  const dot = value.lastIndexOf(".");
  if (dot < 1) return false;
  const given = Buffer.from(value.slice(dot + 1));
  if (given.length !== SIGNATURE_LENGTH) return false;
  const wanted = Buffer.from(signature(value.slice(0, dot), secret));
  return timingSafeEqual(given, wanted);
}
