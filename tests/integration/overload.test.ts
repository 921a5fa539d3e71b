import { expect, it, vi } from "vitest";
import { encode } from "../../app/cache/page-encoding.server";
import { localeOfPath } from "../../app/i18n/locales";
import { inLocale } from "../../app/i18n/request-locale.server";
import { logRequests } from "../../app/security/request-log.server";
import { captureLog } from "../capture-log";
import { signedInCookie, startPageSite } from "../page-cache-site";
import { describeEachDatabase } from "../test-db";
import { variedCards } from "../varied-cards";

// Past capacity (server/render-gate.ts, ADR 093), seen through HTTP with a stand-in for React
// Router whose renders hang until the test lets them go:
// - a request that would wait past the budget is answered at once: 503, Retry-After, in the
//   visitor's language, JSON on the API; a cached page is answered meanwhile;
// - a signed-in owner's write goes before the public crowd that waits;
// - a stranger with two networks and no cookies: one network cannot fill the queue, the other
//   still gets in;
// - a page rendered while others wait is compressed at the busy level, one rendered alone at the
//   fast one (ADR 118).

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36";

/** A page as long and as varied as a browse page's cards, so compression levels differ in size. */
function longPage(pathname: string): string {
  return `<ul>${pathname}${variedCards(pathname.length, 1_500)}</ul>`;
}

/** A site whose renders wait while `held`; `rendered` lists what was rendered, in order. */
async function startSite(
  db: Parameters<typeof startPageSite>[0],
  options: Parameters<typeof startPageSite>[3],
  middleware: Parameters<typeof startPageSite>[2] = [],
) {
  const rendered: string[] = [];
  let held = false;
  let waiting: (() => void)[] = [];
  const { base, pages } = await startPageSite(
    db,
    async (request) => {
      if (held) await new Promise<void>((resolve) => waiting.push(resolve));
      const { pathname, search } = new URL(request.url);
      rendered.push(`${request.method} ${pathname}${search}`);
      if (pathname.startsWith("/api/")) return Response.json({ ads: [] });
      if (pathname.startsWith("/university/"))
        return new Response(longPage(pathname), { headers: { "Content-Type": "text/html; charset=utf-8" } });
      if (pathname === "/sitemap.xml")
        return new Response("<urlset/>", {
          headers: { "Content-Type": "application/xml", "Cache-Control": "public, max-age=3600" },
        });
      return new Response(`<p>${pathname}</p>`, { headers: { "Content-Type": "text/html; charset=utf-8" } });
    },
    [...middleware, (req, _res, next) => inLocale(localeOfPath(req.path), next)],
    options,
  );
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { headers: { "User-Agent": BROWSER, ...headers } });
  return {
    base,
    get,
    rendered,
    /** Resolves once `running` renders are under way and `waiting` wait (the machine may be slow). */
    async until(running: number, waiting: number) {
      while (pages.renderQueue.running !== running || pages.renderQueue.waiting !== waiting)
        await new Promise((resolve) => setTimeout(resolve, 5));
    },
    hold() {
      held = true;
    },
    letGo() {
      held = false;
      for (const resolve of waiting) resolve();
      waiting = [];
    },
  };
}

describeEachDatabase("overload answered in time", (ctx) => {
  it("tells the request past the budget to come back, in its language, while cached pages and owners go on", async () => {
    // One render at a time, 2.5 s each as far as the gate knows: the budget of 5 s holds two waiting
    // (all from this one network here, with nobody else waiting: it may fill the queue). Long times, so that
    // nobody waits past twice the budget on a slow machine and is refused late.
    const site = await startSite(ctx().db, {
      renderGate: { slots: 1, budgetMs: 5_000, initialIntervalMs: 2_500, slowQueueMs: 0, minQueue: 0 },
    });
    expect((await site.get("/about")).headers.get("x-page-cache")).toBe("MISS");

    site.hold();
    const crowd = [site.get("/browse?page=2")];
    await site.until(1, 0);
    crowd.push(site.get("/browse?page=3"), site.get("/browse?page=4"));
    await site.until(1, 2);

    const sinhala = await site.get("/si/browse?page=5");
    expect(sinhala.status).toBe(503);
    expect(Number(sinhala.headers.get("retry-after"))).toBeGreaterThanOrEqual(2);
    expect(sinhala.headers.get("cache-control")).toBe("no-store");
    const page = await sinhala.text();
    expect(page).toContain('lang="si"');
    expect(page).toContain("Bodima මේ මොහොතේ ඉතා කාර්යබහුලයි. තත්පර කිහිපයකින් නැවත උත්සාහ කරන්න.");
    expect(page).not.toMatch(/at .*\.ts:\d+/);

    const api = await site.get("/api/listings?limit=7");
    expect(api.status).toBe(503);
    expect(api.headers.get("retry-after")).toBeTruthy();
    expect(await api.json()).toMatchObject({
      error: "Bodima is very busy right now. Please try again in a few seconds.",
    });

    // A page the cache has is answered while the crowd waits.
    const cached = await site.get("/about");
    expect(cached.status).toBe(200);
    expect(cached.headers.get("x-page-cache")).toBe("HIT");

    // An owner signed in: not refused, and rendered before the crowd that waited first.
    const owner = site.get("/dashboard", { cookie: await signedInCookie(ctx().db) });
    await site.until(1, 3);
    site.letGo();
    expect((await owner).status).toBe(200);
    for (const answer of await Promise.all(crowd)) expect(answer.status).toBe(200);
    expect(site.rendered.slice(1, 3)).toEqual(["GET /browse?page=2", "GET /dashboard"]);
  });

  it("a stranger with two networks: the bot fills the queue, yet a visitor on another network takes its newest place", async () => {
    // One render at a time, 1.25 s each as far as the gate knows: the 5 s budget holds four waiting.
    const site = await startSite(ctx().db, {
      env: { TRUST_PROXY: "127.0.0.1" },
      renderGate: { slots: 1, budgetMs: 5_000, initialIntervalMs: 1_250, slowQueueMs: 0, minQueue: 0 },
    });
    site.hold();
    const bot = { "x-forwarded-for": "198.51.100.7" };
    const first = site.get("/browse?page=10", bot);
    await site.until(1, 0);
    // Other addresses of the same /24 are the same network.
    const more: Promise<Response>[] = [];
    for (const n of [11, 12, 13, 14]) {
      more.push(site.get(`/browse?page=${n}`, { "x-forwarded-for": `198.51.100.${n}` }));
      await site.until(1, more.length);
    }
    const refused = await site.get("/browse?page=20", bot);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBeTruthy();

    const student = site.get("/browse?page=30", { "x-forwarded-for": "203.0.113.5" });
    // The bot's newest request is told to come back in the student's stead.
    expect((await more[3]).status).toBe(503);
    await site.until(1, 4);
    site.letGo();
    expect((await student).status).toBe(200);
    expect((await first).status).toBe(200);
    expect((await Promise.all(more)).map((r) => r.status)).toEqual([200, 200, 200, 503]);
    expect(site.rendered).toContain("GET /browse?page=30");
    expect(site.rendered).not.toContain("GET /browse?page=14");
    expect(site.rendered).not.toContain("GET /browse?page=20");
  });

  it("lets a crawler revalidate a cached page and the sitemap by ETag or by date: 304, no render", async () => {
    const site = await startSite(ctx().db, {});
    for (const path of ["/browse?page=7", "/sitemap.xml"]) {
      const first = await site.get(path);
      expect(first.status).toBe(200);
      const etag = first.headers.get("etag") as string;
      const modified = first.headers.get("last-modified") as string;
      expect(new Date(modified).getTime()).toBeLessThanOrEqual(Date.now());
      const renders = site.rendered.length;

      const byTag = await site.get(path, { "if-none-match": etag });
      expect(byTag.status).toBe(304);
      const byDate = await site.get(path, { "if-modified-since": modified });
      expect(byDate.status).toBe(304);
      expect(byDate.headers.get("last-modified")).toBe(modified);
      expect(site.rendered.length).toBe(renders);

      // An older date, or a tag of another page, gets the page itself.
      const older = new Date(new Date(modified).getTime() - 60_000).toUTCString();
      expect((await site.get(path, { "if-modified-since": older })).status).toBe(200);
      expect((await site.get(path, { "if-none-match": 'W/"other"', "if-modified-since": modified })).status).toBe(200);
    }
  });

  it("compresses a page rendered while others wait at the busy level, one rendered alone at the fast one", async () => {
    // One render at a time; a budget nobody reaches here.
    const site = await startSite(ctx().db, {
      renderGate: { slots: 1, budgetMs: 60_000, initialIntervalMs: 10, slowQueueMs: 60_000, minQueue: 100 },
    });
    const br = { "Accept-Encoding": "br" };
    const bytes = (response: Response) => Number(response.headers.get("content-length"));
    const at = (level: "fast" | "busy", path: string) => encode(Buffer.from(longPage(path)), "br", level).length;
    expect(at("busy", "/university/a")).toBeGreaterThan(at("fast", "/university/a"));

    const alone = await site.get("/university/alone", br);
    expect(alone.headers.get("x-page-cache")).toBe("MISS");
    expect(bytes(alone)).toBe(at("fast", "/university/alone"));
    expect(await alone.text()).toBe(longPage("/university/alone"));

    site.hold();
    const first = site.get("/university/first", br);
    await site.until(1, 0);
    const second = site.get("/university/second", br);
    await site.until(1, 1);
    site.letGo();
    // The first was stored while the second waited its turn; the second rendered with nobody waiting.
    const [busy, after] = await Promise.all([first, second]);
    expect(bytes(busy)).toBe(at("busy", "/university/first"));
    expect(await busy.text()).toBe(longPage("/university/first"));
    expect(bytes(after)).toBe(at("fast", "/university/second"));
  });

  it("writes in a request's log line how long it waited for its turn to render", async () => {
    const { log, lines } = captureLog();
    const site = await startSite(
      ctx().db,
      { renderGate: { slots: 1, budgetMs: 60_000, initialIntervalMs: 10, slowQueueMs: 60_000, minQueue: 100 } },
      [logRequests(log)],
    );
    site.hold();
    const first = site.get("/browse?page=40");
    await site.until(1, 0);
    const second = site.get("/browse?page=41");
    await site.until(1, 1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    site.letGo();
    await Promise.all([first, second]);
    const waitOf = (url: string) =>
      lines.find((l) => l.msg === "request" && l.url === url)?.queuedMs as number | undefined;
    await vi.waitFor(() => expect(waitOf("/browse?page=41")).toBeDefined());
    // The second waited for the first's whole render (held 150 ms at least); the first went straight in.
    expect(waitOf("/browse?page=41")).toBeGreaterThanOrEqual(150);
    expect(waitOf("/browse?page=40")).toBeLessThan(150);
  });
});
