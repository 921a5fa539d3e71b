/**
 * Query parameters that carry secrets: reset and session tokens, passwords,
 * one-time codes, signatures, keys. Matched on the name with case and
 * punctuation ignored (access_token, newPassword, api-key, ...).
 */
const SECRET_NAME = /token|passw|pwd|secret|session|code|otp|signature|^sig$|key$|^auth|jwt|ticket|credential/;

export const REDACTED = "[redacted]";

function normalisedName(raw: string): string {
  let name = raw.replace(/\+/g, " ");
  try {
    name = decodeURIComponent(name);
  } catch {
    // a malformed escape: judge the name as written
  }
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/**
 * A URL (or path with a query) as it may be written to a log: the value of
 * every secret-looking query parameter replaced by [redacted], everything else
 * exactly as received. Logs are read by more people, and kept longer, than the
 * tokens stay valid should allow (issue 9).
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf("?");
  if (queryAt === -1) return url;
  const hashAt = url.indexOf("#", queryAt);
  const end = hashAt === -1 ? url.length : hashAt;
  const pairs = url.slice(queryAt + 1, end).split(/([&;])/);
  const redacted = pairs.map((part) => {
    if (part === "&" || part === ";") return part;
    const eq = part.indexOf("=");
    const name = eq === -1 ? part : part.slice(0, eq);
    if (eq === -1 || !SECRET_NAME.test(normalisedName(name))) return part;
    return `${name}=${REDACTED}`;
  });
  return url.slice(0, queryAt + 1) + redacted.join("") + url.slice(end);
}
