import { mapTileOrigin } from "~/lib/map-tiles";
import { photoOrigin } from "~/lib/photo-urls";
import { randomChunk } from "./random.server";

/**
 * Response headers every answer carries (ADR 010), HTML, JSON,
 * static files and errors alike. The nonce is fresh per response and is the
 * only way an inline script runs: React Router's <Scripts>, <ScrollRestoration>
 * and the streamed hydration data get it through <ServerRouter nonce>
 * (app/entry.server.tsx). JSON-LD blocks are data, not scripts, so CSP leaves them be.
 */
export function createNonce(): string {
  return randomChunk(16).toString("base64");
}

export type SecurityHeaderOptions = {
  inline: InlineSources;
  /** Served over https (req.secure or an https SITE_URL): adds HSTS. */
  https: boolean;
  /** Vite's dev server injects its own inline scripts: the policy is reported, not enforced. */
  development?: boolean;
};

/**
 * Inline scripts and styles run only when the policy names them: by this
 * response's nonce (pages rendered for one request), or by their hashes (pages
 * served from the page cache, ADR 012).
 */
export type InlineSources = { scripts: readonly string[]; styles: readonly string[] };

export function nonceSources(nonce: string): InlineSources {
  return { scripts: [`'nonce-${nonce}'`], styles: [`'nonce-${nonce}'`] };
}

export function contentSecurityPolicy(inline: InlineSources): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...inline.scripts].join(" "),
    // Stylesheets come from our own origin; style *attributes* (a width set by
    // React, for instance) are harmless without script and may be inline.
    ["style-src 'self'", ...inline.styles].join(" "),
    "style-src-attr 'unsafe-inline'",
    // blob: for photo previews before upload, data: for small inline icons; PHOTO_BASE_URL's origin;
    // the map's one tile server (MAP_TILE_URL, ADR 053).
    ["img-src 'self' data: blob:", photoOrigin(), mapTileOrigin()].filter(Boolean).join(" "),
    "font-src 'self'",
    "connect-src 'self'",
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "frame-src 'none'",
    "worker-src 'self'",
    "manifest-src 'self'",
  ].join("; ");
}

export const PERMISSIONS_POLICY = [
  "camera=()",
  "microphone=()",
  "geolocation=()",
  "payment=()",
  "usb=()",
  "serial=()",
  "hid=()",
  "magnetometer=()",
  "gyroscope=()",
  "accelerometer=()",
  "display-capture=()",
  // Topics API (the successor of FLoC's interest-cohort, which browsers no longer recognise and would warn about).
  "browsing-topics=()",
].join(", ");

/** One year, subdomains included: set only once the site is served over https. */
export const HSTS = "max-age=31536000; includeSubDomains";

export function cspHeaderName(development = false): string {
  return development ? "Content-Security-Policy-Report-Only" : "Content-Security-Policy";
}

export function securityHeaders({ inline, https, development }: SecurityHeaderOptions): Record<string, string> {
  const headers: Record<string, string> = {
    [cspHeaderName(development)]: contentSecurityPolicy(inline),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
  if (https) headers["Strict-Transport-Security"] = HSTS;
  return headers;
}
