import { sql } from "kysely";
import { expect, it } from "vitest";
import { buildSitemap, escapeXml, fixedUrls, renderUrlSet } from "../../app/api/sitemap.server";
import { CITIES, UNIVERSITIES } from "../../app/directory/universities";
import { insertListing, listingColumns } from "../../app/models/listing.server";
import { insertTestOwner, listingInput } from "../factories";
import { describeEachDatabase } from "../test-db";

const DAY = 24 * 60 * 60 * 1000;
const SITE = "https://bodima.example";

// The sitemap (ADR 134 for its pages by listing number); the JSON API is in api.test.ts.

describeEachDatabase("sitemap", (ctx) => {
  it("lists the fixed pages, every university and city, and every public listing", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, "sitemap-owner");
    const a = await insertListing(
      db,
      owner,
      listingInput({ title: "Room & board <near> campus" }),
      new Date("2026-11-20T10:00:00Z"),
    );
    const hidden = await insertListing(db, owner, listingInput({ title: "Hidden one" }));
    await db.updateTable("listings").set({ status: "hidden" }).where("id", "=", hidden.id).execute();
    // Expired 40 days before the sitemap's own clock, not the machine's: past 2026-12-02 the machine's
    // clock made it only a few hours from expiring on the sitemap's day, so it was listed.
    const sitemapNow = new Date("2026-11-22T00:00:00Z");
    const expired = await insertListing(
      db,
      owner,
      listingInput({ title: "Expired one" }),
      new Date(sitemapNow.getTime() - 40 * DAY),
    );

    const xml = await buildSitemap(db, SITE, null, { now: sitemapNow });
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9" xmlns:xhtml="http:\/\/www.w3.org\/1999\/xhtml">/,
    );
    for (const path of [
      "/",
      "/browse",
      "/about",
      "/contact",
      "/university/university-of-moratuwa",
      "/city/galle-medical",
    ]) {
      expect(xml).toContain(`<loc>${SITE}${path}</loc>`);
    }
    expect(xml).toContain(`<url><loc>${SITE}/listing/${a.slug}</loc><lastmod>2026-11-20</lastmod><xhtml:link`);
    expect(xml).not.toContain(hidden.slug);
    expect(xml).not.toContain(expired.slug);
    // Every page in each of the three languages (docs/i18n.md), each naming the others and x-default.
    expect(xml!.match(/<url>/g)).toHaveLength((4 + UNIVERSITIES.length + CITIES.length + 1) * 3);
    const alternates = [
      `<xhtml:link rel="alternate" hreflang="en" href="${SITE}/listing/${a.slug}"/>`,
      `<xhtml:link rel="alternate" hreflang="si" href="${SITE}/si/listing/${a.slug}"/>`,
      `<xhtml:link rel="alternate" hreflang="ta" href="${SITE}/ta/listing/${a.slug}"/>`,
      `<xhtml:link rel="alternate" hreflang="x-default" href="${SITE}/listing/${a.slug}"/>`,
    ].join("");
    for (const loc of [`${SITE}/listing/${a.slug}`, `${SITE}/si/listing/${a.slug}`, `${SITE}/ta/listing/${a.slug}`])
      expect(xml).toContain(`<url><loc>${loc}</loc><lastmod>2026-11-20</lastmod>${alternates}</url>`);
    expect(xml).toContain(`<loc>${SITE}/si</loc>`);
    expect(xml).toContain(`<loc>${SITE}/ta/university/university-of-moratuwa</loc>`);
  });

  it("escapes XML special characters", () => {
    expect(escapeXml(`a&b<c>"d'`)).toBe("a&amp;b&lt;c&gt;&quot;d&apos;");
    // Escaped once, when the XML is written.
    const xml = renderUrlSet("https://x.example/a&b", [fixedUrls()[0]]);
    expect(xml).toContain("<loc>https://x.example/a&amp;b/</loc>");
    expect(xml).not.toContain("&amp;amp;");
  });
});

describeEachDatabase("sitemap pages by listing number (ADR 134)", (ctx) => {
  it("switches to an index of pages by listing number when one file would be too big, listing only pages with something on them", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, "sitemap-owner-2");
    const now = new Date("2026-11-22T00:00:00Z");
    const posted = new Date("2026-11-21T00:00:00Z");
    const listings: Awaited<ReturnType<typeof insertListing>>[] = [];
    for (let i = 1; i <= 7; i++)
      listings.push(await insertListing(db, owner, listingInput({ title: `Paged ${i}` }), posted));
    // Ad numbers start at 1001: at two numbers a page, the first pair (1001, 1002) is one page.
    const id = (n: number) => listings[n - 1].id;
    expect(id(1) % 2).toBe(1);
    const pageOf = (n: number) => Math.floor((id(n) - 1) / 2) + 1;
    // The 3rd and 4th, the whole of their page, are not public.
    await db
      .updateTable("listings")
      .set({ status: "hidden" })
      .where("id", "in", [id(3), id(4)])
      .execute();
    const options = { maxUrls: 40, idsPerPage: 2, now };

    const index = await buildSitemap(db, SITE, null, options);
    expect(index).toContain("<sitemapindex");
    const locs = [...index!.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    // Page 1 always (the fixed pages), then each page with a public listing on it.
    expect(locs).toEqual([1, pageOf(1), pageOf(5), pageOf(7)].map((n) => `${SITE}/sitemap.xml?page=${n}`));

    const slugsOn = async (page: number) => {
      const xml = await buildSitemap(db, SITE, page, options);
      return xml === null ? null : [...xml.matchAll(/<loc>[^<]+\/listing\/([^<]+)<\/loc>/g)].map((m) => m[1]);
    };
    const english = (slugs: string[] | null) => slugs?.filter((_, i) => i % 3 === 0);
    const slug = (n: number) => listings[n - 1].slug;
    // Each listing in three languages, newest first on its page.
    expect(await slugsOn(pageOf(1))).toEqual([slug(2), slug(2), slug(2), slug(1), slug(1), slug(1)]);
    expect(await slugsOn(pageOf(3))).toEqual([]);
    expect(english(await slugsOn(pageOf(5)))).toEqual([slug(6), slug(5)]);
    expect(english(await slugsOn(pageOf(7)))).toEqual([slug(7)]);
    expect(await slugsOn(1)).toEqual([]);
    expect(await buildSitemap(db, SITE, 1, options)).toContain(`<loc>${SITE}/about</loc>`);
    expect(await buildSitemap(db, SITE, pageOf(5), options)).not.toContain(`<loc>${SITE}/about</loc>`);
    expect(await buildSitemap(db, SITE, pageOf(7) + 1, options)).toBeNull();
    expect(await buildSitemap(db, SITE, 0, options)).toBeNull();

    // A listing posted later goes on the last page: the others' pages stay as they were for crawlers.
    const before = await buildSitemap(db, SITE, pageOf(5), options);
    const eighth = await insertListing(db, owner, listingInput({ title: "Paged 8" }), posted);
    expect(eighth.id).toBe(id(7) + 1);
    expect(await buildSitemap(db, SITE, pageOf(5), options)).toBe(before);
    expect(english(await slugsOn(pageOf(7)))).toEqual([eighth.slug, slug(7)]);
    expect(await slugsOn(pageOf(7) + 1)).toBeNull();
  });
});

describeEachDatabase("sitemap at 100,000 listings", (ctx) => {
  it("builds the index and a page of 2,500 listings (7,500 URLs in three languages) quickly", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, "bulk-owner");
    const now = new Date();
    const created = now.toISOString();
    const expires = new Date(now.getTime() + 30 * DAY).toISOString();
    // One listing through the app's own columns, then 99,999 copies of it that the database makes
    // itself in one statement: 200 inserts of 500 rows, each row built and bound in JavaScript, took
    // most of this test's time. Copying the rows keeps every one a real listing with every column.
    const listing = {
      ...listingColumns(listingInput()),
      slug: "bulk-room-0",
      title: "Bulk room",
      userId: owner.id,
      userEmail: owner.email,
      status: "active" as const,
      hiddenReason: null,
      expiresAt: expires,
      createdAt: created,
      updatedAt: created,
    };
    await db.insertInto("listings").values(listing).execute();
    const copied = Object.keys(listing).filter((column) => column !== "slug");
    await sql`with recursive copy(n) as (select 1 union all select n + 1 from copy where n < 99999)
      insert into listings (${sql.join(copied.map((column) => sql.id(column)))}, slug)
      select ${sql.join(copied.map((column) => sql.ref(`first.${column}`)))}, 'bulk-room-' || n
      from copy, listings first where first.slug = 'bulk-room-0'`.execute(db);

    const started = performance.now();
    const index = await buildSitemap(db, SITE, null);
    const page1 = await buildSitemap(db, SITE, 1);
    const page40 = await buildSitemap(db, SITE, 40);
    const elapsed = performance.now() - started;

    // Ad numbers 1001 to 101,000: pages of 2,500 numbers, the first holding 1,500 (1001 to 2,500).
    expect(index!.match(/<sitemap>/g)).toHaveLength(41);
    expect(page1!.match(/<url>/g)).toHaveLength((1_500 + fixedUrls().length) * 3);
    expect(page40!.match(/<url>/g)).toHaveLength(2_500 * 3);
    expect(await buildSitemap(db, SITE, 41)).toContain(`<loc>${SITE}/listing/bulk-room-`);
    expect(await buildSitemap(db, SITE, 42)).toBeNull();
    expect(elapsed).toBeLessThan(5_000);
  }, 120_000);
});
