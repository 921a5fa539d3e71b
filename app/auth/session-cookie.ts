/**
 * better-auth names its session cookie `${cookiePrefix}.session_token`, with
 * `__Secure-` in front on https (app/auth/auth.server.ts). Whether a request
 * carries one decides whether the page cache may answer it (ADR 012) and
 * whether a page asks the database who is signed in.
 */
export const AUTH_COOKIE_PREFIX = "bodima";

/** The session cookie's name on plain http. */
export const SESSION_COOKIE_NAME = `${AUTH_COOKIE_PREFIX}.session_token`;

/** "Remember me": the session (and its cookie) lasts 30 days, at most, from sign-in (ADR 019). */
export const SESSION_DAYS = 30;

const SESSION_COOKIE = new RegExp(`(?:^|;)\\s*(?:__Secure-)?${AUTH_COOKIE_PREFIX}\\.session_token=`);

export function hasSessionCookie(cookieHeader: string | null | undefined): boolean {
  return !!cookieHeader && SESSION_COOKIE.test(cookieHeader);
}
