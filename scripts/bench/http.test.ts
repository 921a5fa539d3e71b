import { describe, expect, it } from "vitest";
import { hasSessionCookie } from "../../app/auth/session-cookie";
import { hasSignedSessionCookie } from "../../app/auth/session-signature.server";
import { findStylesheetPath, uncachedHeaders } from "./http.ts";

describe("findStylesheetPath", () => {
  it("finds the root stylesheet whatever the attribute order", () => {
    expect(findStylesheetPath('<link nonce="x" rel="stylesheet" href="/assets/app-DYIxwc1P.css"/>')).toBe(
      "/assets/app-DYIxwc1P.css",
    );
    expect(findStylesheetPath('<link href="/assets/app-a_b.css" rel=stylesheet>')).toBe("/assets/app-a_b.css");
    expect(findStylesheetPath('<style id="site-css" data-href="/assets/app-c.css" nonce="n">body{}</style>')).toBe(
      "/assets/app-c.css",
    );
  });

  it("ignores preloads, other stylesheets and pages without one", () => {
    const html =
      '<link rel="modulepreload" href="/assets/root-x.js"/><link rel="preload" href="/assets/app-y.css"/><link rel="stylesheet" href="/assets/browse-z.css"/>';
    expect(findStylesheetPath(html)).toBeNull();
  });
});

describe("uncachedHeaders", () => {
  it("carry a session cookie signed with the server's secret, so the page cache never answers them", () => {
    const secret = "b".repeat(64);
    const { cookie } = uncachedHeaders(secret);
    expect(hasSessionCookie(cookie)).toBe(true);
    expect(hasSignedSessionCookie(cookie, secret)).toBe(true);
    expect(hasSignedSessionCookie(cookie, "c".repeat(64))).toBe(false);
  });
});
