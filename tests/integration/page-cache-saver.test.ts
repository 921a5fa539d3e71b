import { expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { dataSaverOn } from "../../app/security/data-saver.server";
import { startPageCacheSite } from "../page-cache-site";
import { describeEachDatabase } from "../test-db";

// Data saver and the page cache (server/pages.ts, ADR 090): a page rendered with data saver on is
// kept under its own key, so neither reader is ever handed the other's copy, and Vary says so to
// every cache after ours. React Router is stood in for by a renderer that reads the request the way
// the app's load context does and counts its renders.

async function startSite(db: DB) {
  const renders: string[] = [];
  const base = await startPageCacheSite(db, async (request) => {
    const { pathname } = new URL(request.url);
    const saver = dataSaverOn(request.headers.get("cookie"), request.headers.get("save-data"));
    renders.push(`${pathname} ${saver ? "saver" : "full"}`);
    if (pathname.startsWith("/api/")) return Response.json({ ads: [] });
    return new Response(`<p>${saver ? "Show photo" : "<img>"}</p>`, {
      headers: { "Content-Type": "text/html; charset=utf-8" },
    });
  });
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, { headers });
    return {
      cache: response.headers.get("x-page-cache"),
      vary: response.headers.get("vary"),
      body: await response.text(),
    };
  };
  return { get, renders };
}

describeEachDatabase("data saver and the page cache", (ctx) => {
  it("keeps each reader's copy of a page apart, whichever was asked for first, and serves both from the cache", async () => {
    const site = await startSite(ctx().db);
    const full = { body: "<p><img></p>" };
    const saver = { body: "<p>Show photo</p>" };

    expect(await site.get("/listing/room-1")).toMatchObject({ cache: "MISS", ...full });
    // Asked for by a reader with data saver on: rendered for them, not the copy just kept.
    expect(await site.get("/listing/room-1", { "Save-Data": "on" })).toMatchObject({ cache: "MISS", ...saver });
    for (let round = 0; round < 2; round++) {
      expect(await site.get("/listing/room-1")).toMatchObject({ cache: "HIT", ...full });
      expect(await site.get("/listing/room-1", { "Save-Data": "on" })).toMatchObject({ cache: "HIT", ...saver });
      expect(await site.get("/listing/room-1", { Cookie: "bodima_saver=on" })).toMatchObject({
        cache: "HIT",
        ...saver,
      });
      // The switch turned off wins over the browser's header.
      expect(await site.get("/listing/room-1", { Cookie: "bodima_saver=off", "Save-Data": "on" })).toMatchObject({
        cache: "HIT",
        ...full,
      });
    }
    expect(site.renders).toEqual(["/listing/room-1 full", "/listing/room-1 saver"]);

    // The other order on another page: the saver copy first.
    expect(await site.get("/browse?page=1", { Cookie: "bodima_saver=on" })).toMatchObject({ cache: "MISS", ...saver });
    expect(await site.get("/browse")).toMatchObject({ cache: "MISS", ...full });
    expect(await site.get("/browse", { "Save-Data": "on" })).toMatchObject({ cache: "HIT", ...saver });
  });

  it("tells caches after ours that a page varies with data saver; the API, the same for everyone, is one copy", async () => {
    const site = await startSite(ctx().db);
    for (const headers of [{}, { "Save-Data": "on" }] as Record<string, string>[]) {
      await site.get("/about", headers);
      expect((await site.get("/about", headers)).vary).toBe("Accept-Encoding, Save-Data, Cookie");
    }
    await site.get("/api/listings");
    const api = await site.get("/api/listings", { "Save-Data": "on" });
    expect(api).toMatchObject({ cache: "HIT", vary: "Accept-Encoding" });
    expect(site.renders.filter((r) => r.startsWith("/api/"))).toHaveLength(1);
  });
});
