import { describe, expect, it } from "vitest";
import { cacheablePageKind, isListingPage, isSameForEveryone, normalisePageUrl } from "./page-key";

describe("page cache keys", () => {
  it("caches the Sinhala and Tamil pages like the English ones, each under its own key", () => {
    expect(cacheablePageKind("/si")).toBe("list");
    expect(cacheablePageKind("/ta/browse")).toBe("list");
    expect(cacheablePageKind("/si/listing/a-room-12")).toBe("listing");
    expect(cacheablePageKind("/ta/dashboard")).toBeNull();
    expect(isListingPage("/ta/listing/a-room-12")).toBe(true);
    expect(normalisePageUrl("/si/browse", "?page=1")).toBe("/si/browse");
  });

  it("shares one key between the same search written differently", () => {
    const a = normalisePageUrl("/browse", "?propertyType=single&university=University%20of%20Moratuwa&page=1&search=");
    const b = normalisePageUrl("/browse", "?university=University+of+Moratuwa&propertyType=single");
    expect(a).toBe(b);
    expect(a).toBe("/browse?propertyType=single&university=University+of+Moratuwa");
  });

  it("leaves out defaults: page 1, all types, any gender, the default order", () => {
    expect(normalisePageUrl("/browse", "?page=1&propertyType=all&gender=any&sort=newest")).toBe("/browse");
    // With a search the default order is relevance, so newest is a real choice.
    expect(normalisePageUrl("/browse", "?search=room&sort=newest")).toBe("/browse?search=room&sort=newest");
    expect(normalisePageUrl("/browse", "?search=room&sort=relevance")).toBe("/browse?search=room");
    expect(normalisePageUrl("/api/listings", "?limit=20&page=2")).toBe("/api/listings?page=2");
    expect(normalisePageUrl("/browse", "?limit=20")).toBe("/browse?limit=20");
  });

  it("keeps every filter the pages read in the key, the move-in cost too (ADR 047)", () => {
    expect(normalisePageUrl("/browse", "?maxMoveIn=40000")).toBe("/browse?maxMoveIn=40000");
    expect(normalisePageUrl("/api/listings", "?maxMoveIn=60000&page=1")).toBe("/api/listings?maxMoveIn=60000");
    // ADR 050: 'Within' is part of the key, so each distance has its own page.
    expect(normalisePageUrl("/browse", "?within=2&university=x")).toBe("/browse?university=x&within=2");
  });

  it("keeps the first of a repeated parameter, as the pages read it", () => {
    expect(normalisePageUrl("/browse", "?page=3&page=1")).toBe("/browse?page=3");
  });

  it("leaves out parameters no page reads, so they can neither split nor flood the cache", () => {
    expect(normalisePageUrl("/browse", "?utm_source=fb&fbclid=x1&page=2")).toBe("/browse?page=2");
    expect(normalisePageUrl("/listing/room-1001", "?cachebuster=12345")).toBe("/listing/room-1001");
    // What the contact form prefills from, and the sitemap's page, are kept.
    expect(normalisePageUrl("/contact", "?subject=Report%20an%20Issue&listing=1234&ref=x")).toBe(
      "/contact?listing=1234&subject=Report+an+Issue",
    );
    expect(normalisePageUrl("/sitemap.xml", "?page=2")).toBe("/sitemap.xml?page=2");
    // The sitemap's first page is not its index: page=1 is kept there (a list's first page is the list).
    expect(normalisePageUrl("/sitemap.xml", "?page=1")).toBe("/sitemap.xml?page=1");
    expect(normalisePageUrl("/browse", "?page=1")).toBe("/browse");
  });

  it("keeps React Router's route discovery, by the paths and the build it asks about alone (ADR 135)", () => {
    expect(cacheablePageKind("/__manifest")).toBe("fixed");
    expect(cacheablePageKind("/si/__manifest")).toBe("fixed");
    expect(isSameForEveryone("/ta/__manifest")).toBe(true);
    expect(normalisePageUrl("/__manifest", "?version=dd714fce&paths=%2F%2C%2Fabout&utm_source=x&page=2")).toBe(
      "/__manifest?paths=%2F%2C%2Fabout&version=dd714fce",
    );
    // Another page's parameters mean nothing here, and these nothing on another page.
    expect(normalisePageUrl("/browse", "?paths=%2Fx&version=1&page=2")).toBe("/browse?page=2");
  });

  it("keeps React Router's data parameters", () => {
    expect(normalisePageUrl("/browse.data", "?_routes=root%2Cbrowse&page=2")).toBe(
      "/browse.data?_routes=root%2Cbrowse&page=2",
    );
  });

  it("caches public pages and their data, never private ones", () => {
    for (const path of [
      "/",
      "/_root.data",
      "/browse",
      "/browse.data",
      "/search/Kandy",
      "/search/Kandy/University%20of%20Peradeniya",
      "/university/x",
      "/city/kandy",
      "/about",
      "/sitemap.xml",
      "/api/listings",
      "/getAdsForSEO",
    ]) {
      expect(cacheablePageKind(path), path).toBe("list");
    }
    // Pages that show no listing and no count: a listing write leaves them be.
    for (const path of [
      "/contact",
      "/si/privacy.data",
      "/terms",
      "/robots.txt",
      "/api/universities",
      "/api/openapi.json",
    ]) {
      expect(cacheablePageKind(path), path).toBe("fixed");
    }
    for (const path of ["/listing/room-1001", "/listing/room-1001.data", "/api/listings/1001", "/getAdForSEO/1001"]) {
      expect(cacheablePageKind(path), path).toBe("listing");
    }
    for (const path of [
      "/login",
      "/signup",
      "/reset-password",
      "/dashboard",
      "/dashboard.data",
      "/admin",
      "/listing/room-1001/report",
      "/photos/abc.webp",
      "/updateViewCount",
      "/dev/outbox",
      "/logout",
      "/browse/x",
    ]) {
      expect(cacheablePageKind(path), path).toBeNull();
    }
  });

  it("tells listing pages (whose views count) from the report form and the API", () => {
    expect(isListingPage("/listing/room-1001")).toBe(true);
    expect(isListingPage("/listing/room-1001.data")).toBe(true);
    expect(isListingPage("/listing/room-1001/report")).toBe(false);
    expect(isListingPage("/api/listings/1001")).toBe(false);
  });

  it("never takes private pages or sign-in pages, their data requests included (ADR 016)", () => {
    const paths = [
      "/dashboard",
      "/dashboard/",
      "/dashboard/settings",
      "/dashboard/listings/new",
      "/dashboard/listings/7/edit",
      "/admin",
      "/admin/reports/x",
      "/admin/audit",
      "/login",
      "/signup",
      "/reset-password",
    ];
    for (const path of paths) {
      for (const variant of [
        path,
        `${path.replace(/\/$/, "")}.data`,
        path.toUpperCase(),
        `${path}?redirectTo=%2Fdashboard`,
      ]) {
        expect(cacheablePageKind(variant), variant).toBeNull();
      }
    }
  });
});
