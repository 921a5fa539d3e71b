import { randomBytes } from "node:crypto";

/**
 * Response headers every answer carries (issue 4 "Hardening"), HTML, JSON,
 * static files and errors alike. The nonce is fresh per response and is the
 * only way an inline script runs: React Router's <Scripts>, <ScrollRestoration>
 * and the streamed hydration data get it through <ServerRouter nonce>
 * (app/entry.server.tsx). JSON-LD blocks are data, not scripts, so CSP leaves them be.
 */
export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

export type SecurityHeaderOptions = {
  nonce: string;
  /** Served over https (req.secure or an https SITE_URL): adds HSTS. */
  https: boolean;
  /** Vite's dev server injects its own inline scripts: the policy is reported, not enforced. */
  development?: boolean;
};

export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // Stylesheets come from our own origin; style *attributes* (a width set by
    // React, for instance) are harmless without script and may be inline.
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    // blob: for photo previews before upload, data: for small inline icons.
    "img-src 'self' data: blob:",
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

export function securityHeaders({ nonce, https, development }: SecurityHeaderOptions): Record<string, string> {
  const headers: Record<string, string> = {
    [development ? "Content-Security-Policy-Report-Only" : "Content-Security-Policy"]: contentSecurityPolicy(nonce),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
  if (https) headers["Strict-Transport-Security"] = HSTS;
  return headers;
}
