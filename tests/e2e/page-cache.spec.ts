import { type APIRequestContext, expect, type Page, request as playwrightRequest, test } from "@playwright/test";
import { adRow, field, postListing, signedInOwner, uniqueWord } from "./owners";

// The anonymous page cache (ADR 012), seen from outside: what is
// served from it, what never is, and how fast a change shows on cached pages.

/** A visitor without an account: a fresh cookie jar, as a new browser has. */
async function visitor(baseURL: string | undefined): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { "Accept-Encoding": "br, gzip" } });
}

/** How long after a change every cached page must show it (docs/performance.md, "Budgets"). */
const FRESH_MS = 1_000;

/** Waits until the page at `path` satisfies `check`; returns how long that took. */
async function timeUntil(client: APIRequestContext, path: string, check: (html: string) => boolean): Promise<number> {
  const started = Date.now();
  for (;;) {
    const html = await (await client.get(path)).text();
    if (check(html)) return Date.now() - started;
    if (Date.now() - started > 10_000) throw new Error(`${path} did not change within 10 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Asks twice and expects the second answer from the cache. Other browser tests post and edit
 * listings at the same time, and any listing write rightly makes every cached list stale: when one
 * lands between the two requests, ask again.
 */
async function cachedTwice(client: APIRequestContext, path: string) {
  let second: Awaited<ReturnType<APIRequestContext["get"]>> | undefined;
  await expect(async () => {
    await client.get(path);
    second = await client.get(path);
    expect(second.status(), path).toBe(200);
    expect(second.headers()["x-page-cache"], path).toBe("HIT");
  }).toPass({ timeout: 10_000 });
  return second!;
}

/**
 * A new browser's first request for `path`, answered from the cache. Each worker process keeps a
 * cache of its own (ADR 040) and a new browser opens a new connection, which may reach a worker
 * that has not rendered the page yet: that miss fills its cache, and a newer browser asks again.
 */
async function newBrowserHit(baseURL: string | undefined, path: string, userAgent: string) {
  for (let tries = 1; ; tries++) {
    const browser = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { "User-Agent": userAgent } });
    const response = await browser.get(path);
    if (response.headers()["x-page-cache"] === "HIT" || tries === 10) return { browser, response };
    await browser.dispose();
  }
}

test.describe("served from the cache", () => {
  test("a public page is rendered once and then served from memory, with validators", async ({ baseURL }) => {
    const client = await visitor(baseURL);
    // The terms read the same whatever other tests write; /about counts the listings, so a test
    // adding one in between rightly gives it a new ETag (a 200, seen once in CI).
    const first = await client.get("/terms");
    expect(first.headers()["x-page-cache"]).toMatch(/HIT|MISS/);
    const second = await cachedTwice(client, "/terms");
    // A miss, and the hits before the worker compresses it again, come as gzip around the
    // stylesheet compressed once (ADR 128); from then on a brotli reader gets brotli.
    expect(second.headers()["content-encoding"]).toMatch(/^(br|gzip)$/);
    await expect
      .poll(async () => (await client.get("/terms")).headers()["content-encoding"], { timeout: 10_000 })
      .toBe("br");
    expect(second.headers()["cache-control"]).toBe("public, max-age=0, s-maxage=1, stale-while-revalidate=10");
    // The page differs with data saver, which Save-Data or the switch's cookie turns on (ADR 090).
    expect(second.headers().vary).toBe("Accept-Encoding, Save-Data, Cookie");
    expect(second.headers()["set-cookie"]).toBeUndefined();
    const etag = second.headers().etag;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await client.get("/terms", { headers: { "If-None-Match": etag } });
    expect(again.status()).toBe(304);
    expect(await again.text()).toBe("");
    await client.dispose();
  });

  test("the same search written differently shares one entry", async ({ baseURL }) => {
    const client = await visitor(baseURL);
    const word = uniqueWord();
    // Other tests post and take down listings meanwhile, and any such write drops every cached
    // list: a MISS after one is no proof against sharing, so the round is tried again (a HIT never lies).
    let answers: (string | undefined)[] = [];
    for (let round = 0; round < 5 && answers.join() !== "HIT,HIT"; round++) {
      await client.get(`/browse?search=${word}&propertyType=all&page=1`);
      const other = await client.get(`/browse?page=1&gender=any&search=${word}&maxPrice=`);
      // A link shared with tracking parameters, or a made-up one, is the same page.
      const tracked = await client.get(`/browse?search=${word}&utm_source=whatsapp&cachebuster=${Date.now()}`);
      answers = [other.headers()["x-page-cache"], tracked.headers()["x-page-cache"]];
    }
    expect(answers).toEqual(["HIT", "HIT"]);
    await client.dispose();
  });

  test("a missing listing (404) is never stored", async ({ baseURL }) => {
    const client = await visitor(baseURL);
    await client.get("/listing/no-such-room-999999");
    const again = await client.get("/listing/no-such-room-999999");
    expect(again.status()).toBe(404);
    expect(again.headers()["x-page-cache"]).toBeUndefined();
    await client.dispose();
  });

  test("a cached listing page still counts its view, and gives a new visitor the view cookies", async ({ baseURL }) => {
    const client = await visitor(baseURL);
    const { ads } = (await (await client.get("/api/listings?limit=50&sort=price_desc")).json()) as {
      ads: { id: string; slug: string }[];
    };
    const target = ads[ads.length - 1];
    await client.get(`/listing/${target.slug}`);
    const before = (await (await client.get(`/api/listings/${target.id}`)).json()) as { ad: { views: number } };

    // Two new browsers, each served the page from the cache.
    for (let i = 0; i < 2; i++) {
      const { browser, response } = await newBrowserHit(
        baseURL,
        `/listing/${target.slug}`,
        "Mozilla/5.0 (Linux; Android 13) Chrome/126.0 Mobile Safari/537.36",
      );
      expect(response.headers()["x-page-cache"]).toBe("HIT");
      expect(response.headers()["set-cookie"]).toMatch(/bodima_vs=/);
      await browser.dispose();
    }
    await expect
      .poll(
        async () =>
          ((await (await client.get(`/api/listings/${target.id}`)).json()) as { ad: { views: number } }).ad.views,
        { timeout: 12_000 },
      )
      .toBeGreaterThanOrEqual(before.ad.views + 2);
    await client.dispose();
  });
});

test("a cached listing page gives each new browser its own view cookies, and a returning one none", async ({
  baseURL,
}) => {
  // Hits are written from headers prepared once per page: nobody's cookies may stay in them.
  const client = await visitor(baseURL);
  const { ads } = (await (await client.get("/api/listings?limit=1")).json()) as { ads: { slug: string }[] };
  const path = `/listing/${ads[0].slug}`;
  await cachedTwice(client, path);
  const userAgent = "Mozilla/5.0 (Linux; Android 13) Chrome/126.0 Mobile Safari/537.36";
  const seen: string[] = [];
  for (let i = 0; i < 2; i++) {
    const { browser, response: first } = await newBrowserHit(baseURL, path, userAgent);
    expect(first.headers()["x-page-cache"]).toBe("HIT");
    // An answer with a cookie is this browser's: no CDN may keep it for others (ADR 068).
    expect(first.headers()["cache-control"]).toBe("private, no-store");
    const session = /bodima_vs=([^;]+)/.exec(first.headers()["set-cookie"] ?? "")?.[1];
    expect(session).toBeDefined();
    seen.push(session!);
    // The same browser again, with the cookies it was given: a hit with no Set-Cookie at all.
    const again = await browser.get(path);
    expect(again.headers()["x-page-cache"]).toBe("HIT");
    expect(again.headers()["set-cookie"]).toBeUndefined();
    expect(again.headers()["cache-control"]).toBe("public, max-age=0, s-maxage=1, stale-while-revalidate=10");
    await browser.dispose();
  }
  expect(new Set(seen).size).toBe(2);
  await client.dispose();
});

test("a made-up session cookie is answered from the cache, on a page and on the API", async ({ baseURL }) => {
  // Only a cookie this site signed takes a request past the cache: anything else was a free way to force renders.
  const forged = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: { Cookie: "bodima.session_token=x" },
  });
  for (const path of ["/about", "/api/listings", "/getAdsForSEO"]) await cachedTwice(forged, path);
  await forged.dispose();
});

test.describe("never for someone signed in", () => {
  test("a signed-in owner gets pages rendered for them, never stored nor served from the cache", async ({
    page,
    baseURL,
  }) => {
    const name = `Cache Owner ${uniqueWord()}`;
    await signedInOwner(page, { name });
    const anonymous = await visitor(baseURL);
    await cachedTwice(anonymous, "/browse");

    const mine = await page.request.get("/browse");
    expect(mine.headers()["x-page-cache"]).toBeUndefined();
    expect(mine.headers()["cache-control"]).toBe("private, no-store");
    expect(await mine.text()).toContain(name);
    // The API is the same for everyone: served from the cache even to them. Another test's new or
    // edited listing may empty the cache between the two requests, so the pair is tried again until
    // nothing came between; a server that skipped the cache for a session would never answer HIT.
    await expect
      .poll(async () => {
        await anonymous.get("/api/listings?limit=3");
        return (await page.request.get("/api/listings?limit=3")).headers()["x-page-cache"];
      })
      .toBe("HIT");

    // And nothing of theirs reaches anyone else.
    const theirs = await anonymous.get("/browse");
    expect(await theirs.text()).not.toContain(name);
    await anonymous.dispose();
  });
});

test.describe("no inline script runs without its hash", () => {
  test("a cached page keeps a strict CSP and still works: no violation, the page hydrates", async ({
    page,
    baseURL,
  }) => {
    const client = await visitor(baseURL);
    const cached = await cachedTwice(client, "/browse");
    const csp = cached.headers()["content-security-policy"];
    expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    await client.dispose();

    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => {
        (window as unknown as { __violations: string[] }).__violations ??= [];
        (window as unknown as { __violations: string[] }).__violations.push(`${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    // The browser's connection may reach a worker that has not cached /browse yet (ADR 040): that
    // load fills its cache, and the next load on the same connections is a hit.
    let response = await page.goto("/browse");
    for (let tries = 1; response?.headers()["x-page-cache"] !== "HIT" && tries < 10; tries++)
      response = await page.goto("/browse");
    expect(response?.headers()["x-page-cache"]).toBe("HIT");
    // Hydrated: a client-side navigation works (React Router handles the click).
    await page.getByRole("link", { name: /^Next/ }).first().click();
    await expect(page).toHaveURL(/page=2/);
    expect(await page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? [])).toEqual(
      [],
    );
    expect(violations).toEqual([]);
  });
});

test.describe("route discovery", () => {
  test("the routes a page's links lead to are asked for once and then served from the cache, to every browser", async ({
    browser,
    baseURL,
  }) => {
    // Each page a browser hydrates asks React Router's /__manifest which routes its links lead to
    // (ADR 135). The answer depends on the build and the paths alone: the second browser's is a hit.
    const discoveries: { url: string; status: number; cache?: string }[] = [];
    for (let round = 0; round < 5; round++) {
      const context = await browser.newContext({ baseURL });
      const page = await context.newPage();
      page.on("response", (response) => {
        if (new URL(response.url()).pathname === "/__manifest")
          discoveries.push({
            url: response.url(),
            status: response.status(),
            cache: response.headers()["x-page-cache"],
          });
      });
      await page.goto("/about");
      await expect.poll(() => discoveries.length, { timeout: 10_000 }).toBeGreaterThan(round);
      await context.close();
      if (discoveries.some((d) => d.cache === "HIT")) break;
    }
    expect(discoveries.every((d) => d.status === 200)).toBe(true);
    expect(new Set(discoveries.map((d) => d.url)).size).toBe(1);
    expect(discoveries.map((d) => d.cache)).toContain("HIT");

    // Made-up parameters neither split the entry nor reach the render (they are left out of the key):
    // a URL never asked before, with a cache-buster of its own each time, is a hit once this
    // connection's worker holds the page (ADR 040); were the parameter kept, every one would miss.
    const client = await visitor(baseURL);
    const asked = new URL(discoveries[0].url);
    await expect
      .poll(async () => {
        asked.searchParams.set("cachebuster", `${Date.now()}-${Math.random()}`);
        const answer = await client.get(asked.pathname + asked.search);
        expect(answer.status()).toBe(200);
        return answer.headers()["x-page-cache"];
      })
      .toBe("HIT");
    await client.dispose();
  });
});

test.describe("fresh within a second", () => {
  test("a new listing shows on a cached /browse, an edit on every cached page, a delete takes it off", async ({
    page,
    baseURL,
  }) => {
    test.slow();
    const client = await visitor(baseURL);
    await signedInOwner(page);
    const word = uniqueWord();
    const title = `Cached room ${word}`;

    await cachedTwice(client, "/browse");
    await cachedTwice(client, `/browse?search=${word}`);
    await postListing(page, title);
    expect(await timeUntil(client, "/browse", (html) => html.includes(title))).toBeLessThanOrEqual(FRESH_MS);
    expect(await timeUntil(client, `/browse?search=${word}`, (html) => html.includes(title))).toBeLessThanOrEqual(
      FRESH_MS,
    );

    const row = adRow(page, title);
    const id = await row.getAttribute("data-ad-id");
    const href = (await row.getByRole("link", { name: title, exact: true }).getAttribute("href"))!;
    await cachedTwice(client, href);
    await cachedTwice(client, `/api/listings/${id}`);
    await cachedTwice(client, `/browse?search=${word}`);

    await page.goto(`/dashboard/listings/${id}/edit`);
    const newTitle = `Renamed cached room ${word}`;
    await field(page, "Title").fill(newTitle);
    await field(page, "Monthly rent \\(LKR\\)").fill("19500");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Ad updated successfully!")).toBeVisible({ timeout: 15_000 });
    const edited = (html: string) => html.includes(newTitle);
    expect(await timeUntil(client, href, (html) => edited(html) && html.includes("19,500"))).toBeLessThanOrEqual(
      FRESH_MS,
    );
    expect(await timeUntil(client, `/api/listings/${id}`, edited)).toBeLessThanOrEqual(FRESH_MS);
    expect(await timeUntil(client, `/browse?search=${word}`, edited)).toBeLessThanOrEqual(FRESH_MS);

    await deleteListing(page, newTitle);
    expect(await timeUntil(client, `/browse?search=${word}`, (html) => !html.includes(newTitle))).toBeLessThanOrEqual(
      FRESH_MS,
    );
    expect((await client.get(href)).status()).toBe(404);
    await client.dispose();
  });
});

async function deleteListing(page: Page, title: string) {
  await page.goto("/dashboard");
  page.once("dialog", (dialog) => void dialog.accept());
  await adRow(page, title)
    .getByRole("link", { name: /^Delete / })
    .click();
  await expect(page.getByText("Ad deleted successfully!")).toBeVisible({ timeout: 15_000 });
}
