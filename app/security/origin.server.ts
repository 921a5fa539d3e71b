/**
 * Cross-site request forgery guard for every state-changing request, before
 * any route code runs. Browsers send Origin (and Sec-Fetch-Site) on POSTs, so
 * a foreign one is refused; a request without either (curl, another server)
 * goes on to the route's own checks (sessions need isSameOrigin there).
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export type OriginHeaders = { origin?: string | null; secFetchSite?: string | null };

/** The origins our own pages post from: SITE_URL's, and the one the request was addressed to. */
export function isForeignRequest(method: string, headers: OriginHeaders, allowedOrigins: readonly string[]): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  if (headers.secFetchSite?.toLowerCase() === "cross-site") return true;
  const origin = headers.origin;
  if (origin === undefined || origin === null || origin === "") return false;
  // "null" (sandboxed frames, data: pages) is foreign too.
  return !allowedOrigins.includes(origin.toLowerCase());
}

export function originOf(url: string): string | null {
  try {
    return new URL(url).origin.toLowerCase();
  } catch {
    return null;
  }
}
