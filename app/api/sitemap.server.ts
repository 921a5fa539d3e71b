import type { DB } from "~/db/db.server";
import { CITIES, UNIVERSITIES } from "~/directory/universities";
import { LOCALES, localePath } from "~/i18n/locales";
import { blocksWithPublicListings, countPublicListings, listPublicSlugs } from "~/models/listing.server";
import { newestAdNumber } from "~/models/listing-search.server";

/** sitemaps.org: one file holds at most 50,000 URLs. */
export const SITEMAP_MAX_URLS = 50_000;
/**
 * Listing numbers per page of a sitemap index (ADR 134): page N lists the public listings numbered
 * (N − 1) × 2,500 + 1 to N × 2,500, each in every language, so at most 7,500 URLs (about 5 MB of
 * XML) and a listing stays on its page for good. Pages of 15,000 listings counted by offset took
 * 0.25–0.9 s of a worker's time each at 100,000 listings (sorting every public row), during which
 * its other visitors waited.
 */
export const SITEMAP_IDS_PER_PAGE = 2_500;

/** A page of the site by its English path; the sitemap lists it in every language. */
export type SitemapUrl = { path: string; lastmod?: string };

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const XHTML_NS = 'xmlns:xhtml="http://www.w3.org/1999/xhtml"';

/**
 * One <url> per page and language (/about, /si/about, /ta/about), each naming
 * all three and x-default (English) as alternates, as search engines ask
 * (ADR 033).
 */
export function renderUrlSet(siteUrl: string, urls: readonly SitemapUrl[]): string {
  const site = escapeXml(siteUrl);
  const lines: string[] = [];
  for (const { path, lastmod } of urls) {
    const hrefs = LOCALES.map((locale) => `${site}${escapeXml(localePath(locale, path))}`);
    let alternates = "";
    for (let i = 0; i < LOCALES.length; i++)
      alternates += `<xhtml:link rel="alternate" hreflang="${LOCALES[i]}" href="${hrefs[i]}"/>`;
    alternates += `<xhtml:link rel="alternate" hreflang="x-default" href="${hrefs[0]}"/>`;
    const modified = lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : "";
    for (const href of hrefs) lines.push(`<url><loc>${href}</loc>${modified}${alternates}</url>`);
  }
  return `${XML_HEAD}<urlset ${NS} ${XHTML_NS}>\n${lines.join("\n")}\n</urlset>\n`;
}

export function renderSitemapIndex(locs: readonly string[]): string {
  const lines = locs.map((loc) => `<sitemap><loc>${escapeXml(loc)}</loc></sitemap>`);
  return `${XML_HEAD}<sitemapindex ${NS}>\n${lines.join("\n")}\n</sitemapindex>\n`;
}

/** Pages every sitemap lists: the fixed pages, each university and each city. */
export function fixedUrls(): SitemapUrl[] {
  return [
    { path: "/" },
    { path: "/browse" },
    { path: "/about" },
    { path: "/contact" },
    ...UNIVERSITIES.map((u) => ({ path: `/university/${encodeURIComponent(u.id)}` })),
    ...CITIES.map((c) => ({ path: `/city/${encodeURIComponent(c.code)}` })),
  ];
}

function listingUrls(rows: { slug: string; updatedAt: string }[]): SitemapUrl[] {
  return rows.map((r) => ({ path: `/listing/${encodeURIComponent(r.slug)}`, lastmod: r.updatedAt.slice(0, 10) }));
}

export type SitemapOptions = { now?: Date; maxUrls?: number; idsPerPage?: number };

/**
 * /sitemap.xml (page null): one urlset while everything fits in a file,
 * otherwise an index of /sitemap.xml?page=N, listing page 1 (which also carries
 * the fixed pages) and every other page that holds a public listing. Returns
 * null for a page past the highest listing number, or not a page at all.
 */
export async function buildSitemap(
  db: DB,
  siteUrl: string,
  page: number | null,
  options: SitemapOptions = {},
): Promise<string | null> {
  const maxUrls = options.maxUrls ?? SITEMAP_MAX_URLS;
  const perPage = options.idsPerPage ?? SITEMAP_IDS_PER_PAGE;
  const fixed = fixedUrls();

  if (page === null) {
    const total = await countPublicListings(db, options.now);
    if ((fixed.length + total) * LOCALES.length <= maxUrls) {
      const rows = await listPublicSlugs(db, { now: options.now });
      return renderUrlSet(siteUrl, [...fixed, ...listingUrls(rows)]);
    }
    const pages = new Set([1, ...(await blocksWithPublicListings(db, perPage, options.now)).map((b) => b + 1)]);
    return renderSitemapIndex([...pages].map((n) => `${siteUrl}/sitemap.xml?page=${n}`));
  }

  if (!Number.isSafeInteger(page) || page < 1) return null;
  if (page > 1 && page > Math.ceil((await newestAdNumber(db)) / perPage)) return null;
  const ids = { after: (page - 1) * perPage, upTo: page * perPage };
  const rows = await listPublicSlugs(db, { now: options.now, ids });
  return renderUrlSet(siteUrl, [...(page === 1 ? fixed : []), ...listingUrls(rows)]);
}
