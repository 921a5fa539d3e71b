import { describe, expect, it } from "vitest";
import { REDIRECT_BYPASSES, SAFE_REDIRECTS } from "../../tests/redirect-bypasses";
import { safeRedirect } from "./safe-redirect";

const SITE = "http://127.0.0.1:3999";

/** Where a browser would go with this Location header (WHATWG URL parsing, as browsers do). */
function browserTarget(location: string): URL {
  return new URL(location, SITE);
}

describe("safeRedirect", () => {
  it.each(REDIRECT_BYPASSES.map((value) => [JSON.stringify(value), value]))("keeps %s on our site", (_, value) => {
    const result = safeRedirect(value, "/dashboard", SITE);
    expect(result).toMatch(/^\/(?![/\\])/);
    expect(browserTarget(result).origin).toBe(SITE);
    expect(browserTarget(result).username).toBe("");
    // Decoded once more (a proxy or a later redirect might), still no host.
    expect(decodeURIComponent(result)).not.toMatch(/^\/[/\\]/);
    // The few that survive are harmless paths on our site (a "not found" page).
    if (result !== "/dashboard") expect(browserTarget(result).pathname).toMatch(/^\/%/);
    // Without a site URL (the browser's copy of the check), the same answer.
    expect(safeRedirect(value)).toBe(result);
  });

  it.each(SAFE_REDIRECTS)("keeps the same-site target %s", (value, expected) => {
    expect(safeRedirect(value, "/dashboard", SITE)).toBe(expected);
  });

  it("accepts an absolute URL of our own site only as its path, query and hash", () => {
    expect(safeRedirect(`${SITE}/dashboard/settings?x=1#top`, "/dashboard", SITE)).toBe("/dashboard/settings?x=1#top");
    expect(safeRedirect(`${SITE}/dashboard`, "/dashboard", "https://bodima.lk")).toBe("/dashboard");
    expect(safeRedirect("https://bodima.lk/admin", "/dashboard", "https://bodima.lk")).toBe("/admin");
  });

  it("falls back for nothing, non-strings and overlong values", () => {
    expect(safeRedirect(null)).toBe("/dashboard");
    expect(safeRedirect(undefined, "/")).toBe("/");
    expect(safeRedirect("")).toBe("/dashboard");
    expect(safeRedirect(new File(["x"], "x.txt"))).toBe("/dashboard");
    expect(safeRedirect(`/${"a".repeat(5000)}`)).toBe("/dashboard");
  });
});
