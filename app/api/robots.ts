/** Crawlers may read every page except the JSON API, the owners' dashboard and the language switcher's redirects (ADR 036). */
export function robotsTxt(siteUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /api/",
    "Disallow: /dashboard",
    "Disallow: /si/dashboard",
    "Disallow: /ta/dashboard",
    "Disallow: /language/",
    "",
    `Sitemap: ${siteUrl}/sitemap.xml`,
    "",
  ].join("\n");
}
