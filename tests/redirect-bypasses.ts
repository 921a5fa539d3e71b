/**
 * Known open-redirect bypasses (ADR 016), for the unit, integration
 * and browser tests of safeRedirect: each must end on our own site. They
 * follow the usual lists (OWASP's unvalidated-redirects cheat sheet,
 * PayloadsAllTheThings "Open Redirect"): what browsers drop or rewrite
 * (tabs, newlines, backslashes), percent-encoded slashes, schemes, userinfo,
 * look-alike Unicode hosts, and "//" spelled every way.
 */
export const REDIRECT_BYPASSES: readonly string[] = [
  // The reported one and its siblings: browsers drop tabs and newlines from URLs.
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r/evil.example",
  "/\r\n/evil.example",
  "\t//evil.example",
  "/\u0000/evil.example",
  "\u0000//evil.example",
  "/\u001f/evil.example",
  "/\u007f/evil.example",
  " //evil.example",
  // Backslashes are slashes to a browser.
  "/\\evil.example",
  "\\\\evil.example",
  "\\/evil.example",
  "/\\/evil.example",
  "/.\\/evil.example",
  // "//" in every spelling.
  "//evil.example",
  "///evil.example",
  "////evil.example/",
  "/.//evil.example",
  "/././/evil.example",
  "/x/..//evil.example",
  "//evil.example/%2e%2e",
  "/%2Fevil.example",
  "/%2f%2fevil.example",
  "%2F%2Fevil.example",
  "%2f/evil.example",
  "/%252F%252Fevil.example",
  "/%5Cevil.example",
  "/%5c%5cevil.example",
  "/%09/evil.example",
  "/%0a/evil.example",
  "/%0d%0a/evil.example",
  "/%00/evil.example",
  "%09//evil.example",
  // "//" once a language prefix is dropped (the language switcher, the shortlist's 'Back'
  // link and the sign-in guard drop /si and /ta: ADR 033, ADR 062).
  "/si//evil.example/phish",
  "/ta//evil.example",
  "/si///evil.example",
  "/si/%2F/evil.example",
  "/ta/%2fevil.example",
  "/si/.//evil.example",
  "/si/ta//evil.example",
  "/ta/si/%2F%2Fevil.example",
  "/si/./%2Fevil.example",
  "/x/../si//evil.example",
  // Schemes.
  "https://evil.example",
  "HTTPS://evil.example/dashboard",
  "http://evil.example",
  "https:evil.example",
  "https:/evil.example",
  "https:\\\\evil.example",
  "ftp://evil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(document.domain)",
  "java\tscript:alert(1)",
  "javascript://%0aalert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  // Userinfo: "our host" before an @ is only a user name.
  "http://127.0.0.1:3999@evil.example/",
  "//127.0.0.1:3999@evil.example",
  "https://127.0.0.1:3999.evil.example/",
  "//evil.example\\@127.0.0.1:3999/",
  "//evil.example%40127.0.0.1:3999/",
  "http://user:pass@127.0.0.1:3999/dashboard",
  // Look-alike and internationalised hosts.
  "//ｅｖｉｌ.example",
  "／／evil.example",
  "//evil。example",
  "https://xn--evl-ula.example/",
  "//evil.example%E3%80%82com",
  "/\u3000/evil.example",
];

/** Targets that must survive, as path + query + hash on our own site. */
export const SAFE_REDIRECTS: readonly [string, string][] = [
  ["/dashboard", "/dashboard"],
  ["/dashboard/listings/12/edit?tab=photos#photos", "/dashboard/listings/12/edit?tab=photos#photos"],
  ["/admin/reports/abc?done=hide", "/admin/reports/abc?done=hide"],
  ["/browse?search=room%20near%20campus", "/browse?search=room%20near%20campus"],
  ["dashboard/settings", "/dashboard/settings"],
];
