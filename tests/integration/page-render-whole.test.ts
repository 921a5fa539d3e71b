import { expect, it } from "vitest";
import { currentRenderHints } from "../../app/cache/render-hints.server";
import { signedInCookie, startPageCacheSite } from "../page-cache-site";
import { describeEachDatabase } from "../test-db";

// Every page is rendered whole, into one buffer, not streamed (ADRs 121 and 138): the ones the page
// cache keeps and the ones it may not (a form, a page for someone signed in), which cost a third as
// much written once as streamed chunk by chunk through the response's compression. React Router is
// stood in for by a renderer that notes what app/entry.server.tsx would be told.

describeEachDatabase("pages rendered whole", (ctx) => {
  it("asks for a whole render of a kept page, an uncached one and one for someone signed in", async () => {
    const asked = new Map<string, boolean | undefined>();
    const base = await startPageCacheSite(ctx().db, async (request) => {
      asked.set(new URL(request.url).pathname, currentRenderHints()?.whole);
      return new Response("<!DOCTYPE html><html><body>page</body></html>", {
        headers: { "Content-Type": "text/html; charset=utf-8" },
      });
    });
    const cookie = await signedInCookie(ctx().db);

    expect((await fetch(`${base}/terms`)).status).toBe(200);
    expect((await fetch(`${base}/login`)).status).toBe(200);
    expect((await fetch(`${base}/privacy`, { headers: { cookie } })).status).toBe(200);

    expect(Object.fromEntries(asked)).toEqual({ "/terms": true, "/login": true, "/privacy": true });
  });
});
