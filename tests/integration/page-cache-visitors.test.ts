import { expect, it } from "vitest";
import { isListingPage } from "../../app/cache/page-key";
import { notePageListing } from "../../app/cache/render-hints.server";
import type { DB } from "../../app/db/db.server";
import { keepCookieResponsesPrivate } from "../../app/security/private-cookies.server";
import { cookiesOf, signedInCookie, startPageCacheSite } from "../page-cache-site";
import { describeEachDatabase } from "../test-db";

// The page cache (server/pages.ts, ADR 012) seen through HTTP, with a stand-in for React Router
// that counts its renders:
// - an answer that sets a cookie (a new browser's visitor id) is never shared-cacheable (ADR 068);
// - only a session cookie this site signed takes a page past the cache, and never the API.

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36";
/** server/app.ts's request path (tests/page-cache-site.ts), with a stand-in for React Router that counts its renders. */
async function startSite(db: DB) {
  const renders: string[] = [];
  const base = await startPageCacheSite(
    db,
    async (request) => {
      const { pathname } = new URL(request.url);
      renders.push(pathname);
      if (isListingPage(pathname)) notePageListing(1001);
      if (pathname === "/language/si")
        // A route that sets a cookie and (wrongly) calls its answer public.
        return new Response("", {
          headers: { "Content-Type": "text/plain", "Cache-Control": "public, max-age=60", "Set-Cookie": "x=1; Path=/" },
        });
      if (pathname.startsWith("/api/"))
        return Response.json({ ads: [] }, { headers: { "Cache-Control": "public, max-age=60" } });
      return new Response(`<p>${pathname}</p>`, { headers: { "Content-Type": "text/html; charset=utf-8" } });
    },
    [keepCookieResponsesPrivate()],
  );
  const get = (path: string, cookie?: string) =>
    fetch(`${base}${path}`, { headers: { "User-Agent": BROWSER, ...(cookie ? { Cookie: cookie } : {}) } });
  return { get, renders };
}

describeEachDatabase("the page cache and visitors' cookies", (ctx) => {
  it("a cached listing page that gives a new browser its visitor id is private; the same page without cookies is public", async () => {
    const site = await startSite(ctx().db);
    const first = await site.get("/listing/room-1001");
    expect(first.headers.get("x-page-cache")).toBe("MISS");
    expect(first.headers.get("set-cookie")).toContain("bodima_vid=");
    expect(first.headers.get("cache-control")).toBe("private, no-store");

    // The reported case: a new browser answered from the cache.
    const newBrowser = await site.get("/listing/room-1001");
    expect(newBrowser.headers.get("x-page-cache")).toBe("HIT");
    expect(newBrowser.headers.get("set-cookie")).toContain("bodima_vid=");
    expect(newBrowser.headers.get("cache-control")).toBe("private, no-store");
    expect(await newBrowser.text()).toBe("<p>/listing/room-1001</p>");

    // A browser that has its cookies gets none, and the shared answer.
    const returning = await site.get("/listing/room-1001", cookiesOf(newBrowser));
    expect(returning.headers.get("x-page-cache")).toBe("HIT");
    expect(returning.headers.get("set-cookie")).toBeNull();
    expect(returning.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=1, stale-while-revalidate=10");
    expect(site.renders).toEqual(["/listing/room-1001"]);
  });

  it("an answer rendered outside the cache that sets a cookie is private whatever its route said", async () => {
    const site = await startSite(ctx().db);
    const answer = await site.get("/language/si");
    expect(answer.headers.get("set-cookie")).toBe("x=1; Path=/");
    expect(answer.headers.get("cache-control")).toBe("private, no-store");
  });

  it("a made-up session cookie gets the cached page (no render), on a page and on the API", async () => {
    const site = await startSite(ctx().db);
    for (const path of ["/about", "/api/listings", "/getAdsForSEO"]) {
      await site.get(path);
      for (const forged of [
        "bodima.session_token=x",
        "__Secure-bodima.session_token=abc.def",
        `bodima.session_token=${"a".repeat(32)}.${encodeURIComponent(`${"A".repeat(43)}=`)}`,
      ]) {
        const answer = await site.get(path, forged);
        expect(answer.headers.get("x-page-cache"), `${path} ${forged}`).toBe("HIT");
      }
    }
    expect(site.renders).toEqual(["/about", "/api/listings", "/getAdsForSEO"]);
  });

  it("a real session still gets a fresh page, but the API from the cache", async () => {
    const { db } = ctx();
    const site = await startSite(db);
    const session = await signedInCookie(db);
    await site.get("/about");
    const page = await site.get("/about", session);
    expect(page.headers.get("x-page-cache")).toBeNull();
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    await site.get("/api/listings");
    const api = await site.get("/api/listings", session);
    expect(api.headers.get("x-page-cache")).toBe("HIT");
    expect(site.renders).toEqual(["/about", "/about", "/api/listings"]);
  });
});
