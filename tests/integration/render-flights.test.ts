import { connect } from "node:net";
import { afterEach, expect, it } from "vitest";
import { compressionsSettled, STALE_SERVE_MS } from "../../app/cache/page-cache.server";
import { startPageSite } from "../page-cache-site";
import { describeEachDatabase } from "../test-db";

// One render per page at a time (server/render-flights.ts, ADR 108), seen through HTTP with a
// stand-in for React Router whose renders wait until the test lets them go:
// - a crowd on one page that is not stored costs one render, and everyone gets its answer;
// - right after a listing write, the requests that come while the first one renders a list again
//   get the copy from before the write, for a moment only; the first one itself and everyone
//   after get the new page;
// - a follower whose leader stored nothing (a 404) renders for itself: nothing is hidden.

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36";
const HTML = { "Content-Type": "text/html; charset=utf-8" };

async function startSite(db: Parameters<typeof startPageSite>[0]) {
  const rendered: string[] = [];
  let held = false;
  let waiting: (() => void)[] = [];
  let version = 1;
  const { base, cache } = await startPageSite(db, async (request) => {
    const { pathname } = new URL(request.url);
    rendered.push(pathname);
    const shows = `<p>${pathname} v${version}</p>`;
    if (held) await new Promise<void>((resolve) => waiting.push(resolve));
    if (pathname === "/city/nowhere") return new Response("<p>Not found</p>", { status: 404 });
    // A page far larger than a socket's buffers: a client that does not read cannot take it all.
    if (pathname === "/city/big") return new Response(`<p>${"x".repeat(8_000_000)}</p>`, { headers: HTML });
    return new Response(shows, { headers: HTML });
  });
  const get = (path: string) => fetch(`${base}${path}`, { headers: { "User-Agent": BROWSER } });
  return {
    get,
    base,
    cache,
    rendered,
    hold: () => {
      held = true;
    },
    release: () => {
      held = false;
      for (const resolve of waiting.splice(0)) resolve();
      waiting = [];
    },
    /** A listing write as the watchers read it: the data the next render reads changes. */
    write: (at = Date.now()) => {
      version += 1;
      cache.invalidate({ all: false, listingIds: [1001], viewedListingIds: [] }, at);
    },
    /** Resolves once `n` renders have begun. */
    until: async (n: number) => {
      while (rendered.length < n) await new Promise((resolve) => setTimeout(resolve, 5));
    },
  };
}

// Hits queue their pages to be compressed smaller when the process is idle: done before the next file.
afterEach(() => compressionsSettled());

const answer = async (response: Response) => ({
  status: response.status,
  cache: response.headers.get("x-page-cache"),
  body: await response.text(),
});

describeEachDatabase("one render per page at a time", (ctx) => {
  it("renders a page once for a crowd that asks for it at the same time, and answers them all with it", async () => {
    const site = await startSite(ctx().db);
    site.hold();
    const crowd = Array.from({ length: 20 }, () => site.get("/browse"));
    await site.until(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    site.release();
    const answers = await Promise.all((await Promise.all(crowd)).map(answer));
    expect(site.rendered).toEqual(["/browse"]);
    expect(answers.every((a) => a.status === 200 && a.body === "<p>/browse v1</p>")).toBe(true);
    expect(answers.filter((a) => a.cache === "MISS")).toHaveLength(1);
  });

  it("right after a write, answers those who come while the list is rendered again with the copy from before", async () => {
    const site = await startSite(ctx().db);
    expect((await answer(await site.get("/browse"))).body).toBe("<p>/browse v1</p>");
    site.write();
    site.hold();
    const first = site.get("/browse");
    await site.until(2);
    // Meanwhile: the page as it was a moment ago, at once, without a second render.
    const meanwhile = await answer(await site.get("/browse"));
    expect(meanwhile).toEqual({ status: 200, cache: "HIT", body: "<p>/browse v1</p>" });
    site.release();
    // The request that came first after the write gets the new page, and so does everyone after it.
    expect((await answer(await first)).body).toBe("<p>/browse v2</p>");
    expect(await answer(await site.get("/browse"))).toEqual({ status: 200, cache: "HIT", body: "<p>/browse v2</p>" });
    expect(site.rendered).toEqual(["/browse", "/browse"]);
  });

  it("never answers with the old copy a visitor who comes alone, or once the moment has passed", async () => {
    const site = await startSite(ctx().db);
    await site.get("/browse");
    site.write();
    // Alone: nobody else renders it, so this request does, and sees the write.
    expect((await answer(await site.get("/browse"))).body).toBe("<p>/browse v2</p>");

    // A write read longer ago than the moment: those who come meanwhile wait for the new page.
    site.write(Date.now() - STALE_SERVE_MS);
    site.hold();
    const first = site.get("/browse");
    await site.until(3);
    const meanwhile = site.get("/browse");
    await new Promise((resolve) => setTimeout(resolve, 50));
    site.release();
    expect((await answer(await first)).body).toBe("<p>/browse v3</p>");
    expect(await answer(await meanwhile)).toEqual({ status: 200, cache: "HIT", body: "<p>/browse v3</p>" });
    expect(site.rendered).toHaveLength(3);
  });

  it("lets each request render for itself when the one before it stored nothing (a 404)", async () => {
    const site = await startSite(ctx().db);
    site.hold();
    const first = site.get("/city/nowhere");
    await site.until(1);
    const second = site.get("/city/nowhere");
    await new Promise((resolve) => setTimeout(resolve, 50));
    site.release();
    expect((await first).status).toBe(404);
    expect((await second).status).toBe(404);
    expect(site.rendered).toEqual(["/city/nowhere", "/city/nowhere"]);
  });
});

describeEachDatabase("one render per page at a time, against a stranger", (ctx) => {
  it("a visitor who asks for a page and never reads the answer holds up nobody who asked after", async () => {
    const site = await startSite(ctx().db);
    site.hold();
    // The stranger's request leads the render of a large page, then stops reading.
    const { port } = new URL(site.base);
    const stranger = connect(Number(port), "127.0.0.1");
    stranger.on("error", () => undefined);
    stranger.write(`GET /city/big HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: ${BROWSER}\r\n\r\n`);
    stranger.pause();
    await site.until(1);
    const started = performance.now();
    const others = Array.from({ length: 3 }, () => site.get("/city/big"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    site.release();
    const answers = await Promise.all((await Promise.all(others)).map(answer));
    // Answered with the page the stranger's request stored, well before a follower gives up waiting (2 s).
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(answers.map((a) => [a.status, a.cache, a.body.length])).toEqual(
      Array.from({ length: 3 }, () => [200, "HIT", 8_000_007]),
    );
    expect(site.rendered).toEqual(["/city/big"]);
    stranger.destroy();
  });
});
