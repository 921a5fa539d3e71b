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
 * Pages whose last path segment is the secret: the links alert and
 * availability emails carry (whoever has one manages the alerts of an
 * address or answers for a listing) and a shared shortlist's code. In any
 * language (ADR 033), documents and React Router's `.data` requests alike.
 */
const SECRET_SEGMENT = /^((?:\/(?:si|ta))?\/(?:alerts\/(?:confirm|manage|stop|unsubscribe)|availability|s)\/)([^/?#]+)/;

/** What follows a token in its segment and is kept: React Router's `.data`, or a sentence's full stop in an email. */
const SEGMENT_TAIL = /(?:\.data)?[^A-Za-z0-9_~-]*$/;

/** "https://host" of an absolute URL (a link in an email), else "". */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * A URL (or path with a query) as it may be written to a log: the token in
 * the path of a link-signed page and the value of every secret-looking query
 * parameter replaced by [redacted], everything else exactly as received.
 * Logs are read by more people, and kept longer, than the tokens stay valid
 * should allow (ADR 018).
 */
export function redactUrl(url: string): string {
  const origin = ORIGIN.exec(url)?.[0] ?? "";
  return origin + redactQuery(redactPath(url.slice(origin.length)));
}

function redactPath(url: string): string {
  return url.replace(SECRET_SEGMENT, (_, head: string, segment: string) => {
    const tail = SEGMENT_TAIL.exec(segment)?.[0] ?? "";
    return `${head}${REDACTED}${tail}`;
  });
}

function redactQuery(url: string): string {
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
