import { expect, type Page, test } from "@playwright/test";

// A first paint that does not wait (ADR 021): the stylesheet is inlined into
// every page, so a page is styled without a second request, whether it comes
// from the page cache or is rendered for this request, and stays styled after
// client-side navigation (React must never empty the inlined <style>).

async function bodyIsStyled(page: Page) {
  // `flex min-h-screen flex-col` on <body> (app/root.tsx) comes from the stylesheet.
  return page.evaluate(
    () =>
      getComputedStyle(document.body).display === "flex" && getComputedStyle(document.body).flexDirection === "column",
  );
}

test("pages are styled without fetching a stylesheet, before and after client-side navigation", async ({ page }) => {
  const stylesheetRequests: string[] = [];
  await page.route(/\.css(\?|$)/, (route) => {
    stylesheetRequests.push(route.request().url());
    return route.abort();
  });
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });

  for (const path of ["/", "/browse", "/about"]) {
    await page.goto(path);
    expect(await bodyIsStyled(page), path).toBe(true);
  }
  const inlined = page.locator("style#site-css");
  await expect(inlined).toHaveAttribute("data-href", /^\/assets\/app-[\w-]+\.css$/);
  const length = await inlined.evaluate((el) => el.textContent?.length ?? 0);
  expect(length).toBeGreaterThan(10_000);

  // Hydrated, then a client-side navigation: the same element, still full.
  await page.locator('button[aria-controls="site-menu"]').waitFor({ state: "attached" });
  await page.getByRole("link", { name: "Browse", exact: true }).first().click();
  await expect(page).toHaveURL(/\/browse/);
  await expect(page.locator("h1")).toBeVisible();
  expect(await inlined.evaluate((el) => el.textContent?.length ?? 0)).toBe(length);
  expect(await bodyIsStyled(page)).toBe(true);

  expect(stylesheetRequests).toEqual([]);
  expect(violations).toEqual([]);
});

test("scripts and message files are fetched only after the first paint, and the page still hydrates under its CSP", async ({
  page,
}) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|hydrat|Minified React error/i.test(m.text())) violations.push(m.text());
  });
  page.on("pageerror", (error) => violations.push(error.message));
  // Twice each: rendered for this request (nonce), then from the page cache (hashes).
  for (const path of ["/", "/browse", "/about", "/si/browse", "/", "/browse", "/about", "/si/browse"]) {
    await page.goto(path);
    await page.locator('button[aria-controls="site-menu"]').waitFor({ state: "attached" });
    const timing = await page.evaluate(() => ({
      firstPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
      fetched: performance
        .getEntriesByType("resource")
        .filter((entry) => /\/assets\/.*\.(js|json)$/.test(entry.name))
        .map((entry) => entry.startTime),
    }));
    expect(timing.firstPaint, path).toBeGreaterThan(0);
    expect(timing.fetched.length, path).toBeGreaterThan(0);
    expect(Math.min(...timing.fetched), path).toBeGreaterThanOrEqual(timing.firstPaint!);
    // Hydrated: the menu button is React's; the held-back module script ran and is gone.
    expect(await page.locator('script[type="text/bodima-module"]').count(), path).toBe(0);
  }
  expect(violations).toEqual([]);
});

test("pages with a form to fill in load their scripts at once, so nothing typed waits on hydration", async ({
  request,
}) => {
  for (const path of ["/login", "/signup", "/contact", "/si/contact"]) {
    const html = await (await request.get(path)).text();
    expect(html, path).toMatch(/<link rel="modulepreload"/);
    expect(html, path).toMatch(/<link rel="preload" href="[^"]+\.json" as="fetch"/);
    expect(html, path).toMatch(/<script[^>]*type="module"/);
    expect(html, path).not.toContain("text/bodima-module");
  }
});

test("no frame is painted before the parser reaches the footer, so a slow phone never shows half a page", async ({
  request,
}) => {
  // Under CPU throttling Chromium painted half-parsed pages (a button without its text, a select without
  // its options) that then moved: layout shifts before any script ran (ADR 100). `rel=expect` holds
  // rendering until the element is in the document; Chromium counts the start tag, so the target is the
  // element after <main>, not <main> itself.
  for (const path of ["/", "/browse", "/si/browse", "/about"]) {
    const html = await (await request.get(path)).text();
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head, path).toContain('<link rel="expect" href="#site-footer" blocking="render"/>');
    const body = html.slice(html.indexOf("</head>"));
    expect(body.match(/id="site-footer"/g), path).toHaveLength(1);
    expect(body.indexOf('id="site-footer"'), path).toBeGreaterThan(body.indexOf("</main>"));
  }
});

test("the first photos are hinted in <head>", async ({ request }) => {
  // Browse: the first card's photo is the largest paint; it is hinted before the parser reaches it.
  const browse = await (await request.get("/browse")).text();
  const head = browse.slice(0, browse.indexOf("</head>"));
  const firstPhoto = /<img[^>]*srcSet="([^"]+)"/.exec(browse.slice(browse.indexOf("<main")))?.[1];
  expect(firstPhoto).toBeTruthy();
  expect(head).toMatch(/<link rel="preload" as="image" fetchPriority="high"/);
  expect(head).toContain(`imageSrcSet="${firstPhoto}"`);

  // A listing page: its first photo.
  const { ads } = (await (await request.get("/api/listings?limit=50")).json()) as {
    ads: { slug: string; photos?: unknown[] }[];
  };
  for (const ad of ads) {
    const html = await (await request.get(`/listing/${ad.slug}`)).text();
    const photo = /<img[^>]*srcSet="([^"]+)"/.exec(html.slice(html.indexOf("<main")))?.[1];
    if (!photo) continue;
    expect(html.slice(0, html.indexOf("</head>"))).toContain(`imageSrcSet="${photo}"`);
    return;
  }
  throw new Error("no listing with a photo in the demo data");
});

test("nothing moves when the page hydrates, on a phone", async ({ browser }) => {
  // Lighthouse's phone (ADR 021: nothing shifting); a control that appears only with JavaScript
  // ('Show map') must not push the page down when it does.
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const shifts: { value: number; nodes: string[] }[] = [];
    (window as unknown as { shifts: typeof shifts }).shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        value: number;
        hadRecentInput: boolean;
        sources: { node?: Node }[];
      }[])
        if (!entry.hadRecentInput)
          shifts.push({
            value: entry.value,
            nodes: entry.sources.map((s) => (s.node as Element | undefined)?.outerHTML?.slice(0, 120) ?? "?"),
          });
    }).observe({ type: "layout-shift", buffered: true });
  });
  for (const path of ["/", "/browse", "/about", "/si/browse"]) {
    await page.goto(path);
    await page.locator('button[aria-controls="site-menu"]').waitFor({ state: "attached" });
    // Effects after hydration have run.
    await page.waitForTimeout(300);
    const shifts = await page.evaluate(() => (window as unknown as { shifts: unknown[] }).shifts);
    expect(shifts, path).toEqual([]);
  }
  await context.close();
});

// ADR 115: a page's first Intl number format costs the browser 12–20 ms of a desktop core (ICU's number
// data, set up again in every document), several times that on a cheap phone, while it hydrates.
test("hydrating a page formats no number through Intl, in any language", async ({ page, request }) => {
  await page.addInitScript(() => {
    const made: string[] = [];
    (window as unknown as { intlNumbers: string[] }).intlNumbers = made;
    const Original = Intl.NumberFormat;
    Intl.NumberFormat = new Proxy(Original, {
      construct(target, args: ConstructorParameters<typeof Intl.NumberFormat>) {
        made.push(`Intl.NumberFormat(${JSON.stringify(args)})`);
        return new target(...args);
      },
      apply(target, _this, args: ConstructorParameters<typeof Intl.NumberFormat>) {
        made.push(`Intl.NumberFormat(${JSON.stringify(args)})`);
        return target(...args);
      },
    });
    const numberToLocale = Number.prototype.toLocaleString;
    Number.prototype.toLocaleString = function (this: number, ...args: Parameters<number["toLocaleString"]>) {
      made.push(`toLocaleString(${JSON.stringify(args)})`);
      return numberToLocale.apply(this, args);
    };
  });
  const { ads } = (await (await request.get("/api/listings?limit=1")).json()) as { ads: { slug: string }[] };
  // The home page's price choices and figures, browse's filters, a listing's amounts.
  for (const path of ["/", "/ta/", "/browse", "/si/browse", `/listing/${ads[0].slug}`, `/ta/listing/${ads[0].slug}`]) {
    await page.goto(path);
    await page.locator('button[aria-controls="site-menu"]').waitFor({ state: "attached" });
    expect(await page.evaluate(() => (window as unknown as { intlNumbers: string[] }).intlNumbers), path).toEqual([]);
  }
});
