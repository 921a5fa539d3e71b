import type { DB } from "~/db/db.server";
import { CITIES, UNIVERSITIES } from "~/directory/universities";
import { countPublicListings, listPublicSlugs } from "~/models/listing.server";

/** sitemaps.org: one file holds at most 50,000 URLs. */
export const SITEMAP_MAX_URLS = 50_000;
/** Listing URLs per page of a sitemap index, well under the limit with the fixed pages added to page 1. */
export const SITEMAP_LISTINGS_PER_PAGE = 45_000;

export type SitemapUrl = { loc: string; lastmod?: string };

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

export function renderUrlSet(urls: readonly SitemapUrl[]): string {
  const lines = new Array<string>(urls.length);
  for (let i = 0; i < urls.length; i++) {
    const { loc, lastmod } = urls[i];
    lines[i] = lastmod
      ? `<url><loc>${escapeXml(loc)}</loc><lastmod>${escapeXml(lastmod)}</lastmod></url>`
      : `<url><loc>${escapeXml(loc)}</loc></url>`;
  }
  return `${XML_HEAD}<urlset ${NS}>\n${lines.join("\n")}\n</urlset>\n`;
}

export function renderSitemapIndex(locs: readonly string[]): string {
  const lines = locs.map((loc) => `<sitemap><loc>${escapeXml(loc)}</loc></sitemap>`);
  return `${XML_HEAD}<sitemapindex ${NS}>\n${lines.join("\n")}\n</sitemapindex>\n`;
}

/** Pages every sitemap lists: the fixed pages, each university and each city. */
export function fixedUrls(siteUrl: string): SitemapUrl[] {
  return [
    { loc: `${siteUrl}/` },
    { loc: `${siteUrl}/browse` },
    { loc: `${siteUrl}/about` },
    { loc: `${siteUrl}/contact` },
    ...UNIVERSITIES.map((u) => ({ loc: `${siteUrl}/university/${encodeURIComponent(u.id)}` })),
    ...CITIES.map((c) => ({ loc: `${siteUrl}/city/${encodeURIComponent(c.code)}` })),
  ];
}

function listingUrls(siteUrl: string, rows: { slug: string; updatedAt: string }[]): SitemapUrl[] {
  return rows.map((r) => ({
    loc: `${siteUrl}/listing/${encodeURIComponent(r.slug)}`,
    lastmod: r.updatedAt.slice(0, 10),
  }));
}

export type SitemapOptions = { now?: Date; maxUrls?: number; listingsPerPage?: number };

/**
 * /sitemap.xml (page null): one urlset while everything fits in a file,
 * otherwise an index of /sitemap.xml?page=N. Page 1 also carries the fixed
 * pages. Returns null for a page that does not exist.
 */
export async function buildSitemap(
  db: DB,
  siteUrl: string,
  page: number | null,
  options: SitemapOptions = {},
): Promise<string | null> {
  const maxUrls = options.maxUrls ?? SITEMAP_MAX_URLS;
  const perPage = options.listingsPerPage ?? SITEMAP_LISTINGS_PER_PAGE;
  const fixed = fixedUrls(siteUrl);
  const total = await countPublicListings(db, options.now);
  const pages = Math.max(1, Math.ceil(total / perPage));

  if (page === null) {
    if (fixed.length + total <= maxUrls) {
      const rows = await listPublicSlugs(db, { now: options.now });
      return renderUrlSet([...fixed, ...listingUrls(siteUrl, rows)]);
    }
    return renderSitemapIndex(Array.from({ length: pages }, (_, i) => `${siteUrl}/sitemap.xml?page=${i + 1}`));
  }

  if (!Number.isSafeInteger(page) || page < 1 || page > pages) return null;
  const rows = await listPublicSlugs(db, { now: options.now, offset: (page - 1) * perPage, limit: perPage });
  return renderUrlSet([...(page === 1 ? fixed : []), ...listingUrls(siteUrl, rows)]);
}
