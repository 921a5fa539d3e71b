import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { putStylesheetBack, STYLESHEET_PLACEHOLDER } from "../../app/cache/inline-stylesheet.server";
import { compressionsSettled } from "../../app/cache/page-cache.server";
import { currentRenderHints } from "../../app/cache/render-hints.server";
import { startPageCacheSite } from "../page-cache-site";
import { describeEachDatabase } from "../test-db";
import { variedCards } from "../varied-cards";

// The inline stylesheet compressed once (ADR 128), through server/pages.ts: React Router is stood
// in for by a renderer that writes the placeholder and puts the text back as app/entry.server.tsx
// does, so the page cache learns where the stylesheet is from the render's hints.

const css = `:root{--brand:#0d5f54}${variedCards(11, 800)}`;
const html = (text: string) =>
  `<!DOCTYPE html><html lang="en"><head><style id="site-css" data-href="/assets/app.css">${text}</style></head>` +
  `<body><ul>${variedCards(5, 200)}</ul></body></html>`;

describeEachDatabase("a page's stylesheet compressed once", (ctx) => {
  it("answers a miss as gzip that reads as the whole page, with the stylesheet's hash in its policy, and brotli once compressed again", async () => {
    const base = await startPageCacheSite(ctx().db, async () => {
      const page = putStylesheetBack(Buffer.from(html(STYLESHEET_PLACEHOLDER)), css, currentRenderHints());
      return new Response(new Uint8Array(page), { headers: { "Content-Type": "text/html; charset=utf-8" } });
    });
    const get = async (acceptEncoding: string) => {
      const response = await fetch(`${base}/terms`, { headers: { "Accept-Encoding": acceptEncoding } });
      return {
        cache: response.headers.get("x-page-cache"),
        encoding: response.headers.get("content-encoding"),
        policy: response.headers.get("content-security-policy") ?? "",
        text: await response.text(),
      };
    };
    const whole = html(css);
    const hash = `'sha256-${createHash("sha256").update(css).digest("base64")}'`;

    const miss = await get("gzip, deflate, br, zstd");
    expect(miss).toMatchObject({ cache: "MISS", encoding: "gzip", text: whole });
    expect(miss.policy).toContain(hash);
    // A reader without gzip gets what it takes, from the same copy.
    expect(await get("br")).toMatchObject({ cache: "HIT", encoding: "br", text: whole });
    expect(await get("identity")).toMatchObject({ cache: "HIT", encoding: null, text: whole });
    await compressionsSettled();
    expect(await get("gzip, deflate, br")).toMatchObject({ cache: "HIT", encoding: "br", text: whole });
  });
});
