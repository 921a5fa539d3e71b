import { withoutLocale } from "~/i18n/locales";

/**
 * Where to send someone after they signed in or up, from a value anyone can
 * put in a link (`/login?redirectTo=…`): the one function every redirect to a
 * user-supplied target goes through (ADR 016).
 *
 * The value is resolved the way a browser would resolve it against our own
 * site, and only a path on our own origin survives, as path + query + hash:
 * never a scheme, host or userinfo. Browsers drop tabs and newlines from URLs
 * and read "\" as "/", so `/<TAB>/evil.example` or `/\evil.example` would
 * become `//evil.example` (another site): values with control characters or
 * backslashes, raw or percent-encoded, are refused outright, and so is any
 * result that starts with "//". The site's own code rewrites paths after
 * this check (the language switcher, the shortlist's 'Back' link and the
 * sign-in guard drop a /si or /ta prefix: ADR 033), so a path that becomes
 * "//…" once its language prefixes are gone ("/si//evil.example") is refused
 * too; a caller that rewrites a path in any other way passes the result
 * through here again (ADR 062). Without `siteUrl` (in the browser), a
 * placeholder origin stands in, so only relative paths pass.
 */
export function safeRedirect(
  value: FormDataEntryValue | string | null | undefined,
  fallback = "/dashboard",
  siteUrl = "http://site.invalid",
): string {
  if (typeof value !== "string" || value === "" || value.length > MAX_REDIRECT_LENGTH) return fallback;
  if (UNSAFE_CHARACTERS.test(value) || UNSAFE_CHARACTERS.test(decodedOnce(value))) return fallback;
  let site: URL;
  let target: URL;
  try {
    site = new URL(siteUrl);
    target = new URL(value, site);
  } catch {
    return fallback;
  }
  if (target.origin !== site.origin || target.username !== "" || target.password !== "") return fallback;
  const path = `${target.pathname}${target.search}${target.hash}`;
  // "/.//evil.example" resolves to the path "//evil.example", a host to a browser.
  for (let rest = path, previous = ""; rest !== previous; previous = rest, rest = withoutLocale(rest))
    if (!rest.startsWith("/") || rest.startsWith("//") || decodedOnce(rest).startsWith("//")) return fallback;
  return path;
}

const MAX_REDIRECT_LENGTH = 2048;

/** C0 and C1 control characters, DEL and the backslash. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is what this pattern is for
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\\]/;

/** The value with its percent-escapes decoded once ("%2F" is "/"), or itself when they are malformed. */
function decodedOnce(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
