/**
 * Where a request says it comes from: the one origin check (ADR 025).
 * Browsers send Origin (and Sec-Fetch-Site) on every POST, so the security
 * middleware refuses a foreign one before any route runs; routes acting for a
 * session also refuse a write that names no origin at all (isSameOrigin), and
 * the view counter refuses foreign ones only (isCrossSite).
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export type OriginHeaders = { origin?: string | null; secFetchSite?: string | null };

/** "same": ours; "foreign": another site's (or "null"); "unstated": no Origin at all (curl, another server). */
export type RequestSource = "same" | "foreign" | "unstated";

/** The one implementation: a request's source, given the origins our own pages post from. */
export function requestSource(headers: OriginHeaders, allowedOrigins: readonly string[]): RequestSource {
  if (headers.secFetchSite?.toLowerCase() === "cross-site") return "foreign";
  const origin = headers.origin;
  if (origin === undefined || origin === null || origin === "") return "unstated";
  // "null" (sandboxed frames, data: pages) is foreign too.
  return allowedOrigins.includes(origin.toLowerCase()) ? "same" : "foreign";
}

/** A request that may change something (everything but GET, HEAD and OPTIONS). */
export function isWrite(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/**
 * Writes whose only credential is a signed link, never a cookie, so another
 * site's page can do nothing with them that the link does not already allow:
 * an alert email's List-Unsubscribe URL, which mail services POST to from their own servers
 * (RFC 8058 one-click unsubscribe, ADR 058), with whatever Origin they send.
 */
const LINK_SIGNED_WRITES = /^\/(?:(?:si|ta)\/)?alerts\/unsubscribe\/[^/]+$/;

export function isLinkSignedWrite(path: string): boolean {
  return LINK_SIGNED_WRITES.test(path);
}

/** A write from another site's page: the security middleware refuses it before any route runs. */
export function isForeignRequest(method: string, headers: OriginHeaders, allowedOrigins: readonly string[]): boolean {
  return isWrite(method) && requestSource(headers, allowedOrigins) === "foreign";
}

export function originOf(url: string): string | null {
  try {
    return new URL(url).origin.toLowerCase();
  } catch {
    return null;
  }
}

/** The origins our own pages post from: SITE_URL's, and the one the request was addressed to. */
function ownOrigins(request: Request, siteUrl: string): string[] {
  return [originOf(siteUrl), originOf(request.url)].filter((o): o is string => o !== null);
}

function sourceOf(request: Request, siteUrl: string): RequestSource {
  const headers = { origin: request.headers.get("origin"), secFetchSite: request.headers.get("sec-fetch-site") };
  return requestSource(headers, ownOrigins(request, siteUrl));
}

/**
 * Cookie-bearing writes must come from our own pages: browsers send Origin on
 * form posts, so a missing or foreign Origin is refused (CSRF).
 */
export function isSameOrigin(request: Request, siteUrl: string): boolean {
  return sourceOf(request, siteUrl) === "same";
}

/** Another site's page (its Origin, or Sec-Fetch-Site: cross-site); a request that names no origin is not. */
export function isCrossSite(request: Request, siteUrl: string): boolean {
  return sourceOf(request, siteUrl) === "foreign";
}
