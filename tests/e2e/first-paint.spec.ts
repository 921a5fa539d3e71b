import { expect, type Page, test } from "@playwright/test";

// A first paint that does not wait (issue 8): the stylesheet is inlined into
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

test("scripts and messages load after what the first paint needs; the first photos are hinted in <head>", async ({
  request,
}) => {
  for (const path of ["/", "/browse", "/about"]) {
    const html = await (await request.get(path)).text();
    const modulePreloads = html.match(/<link rel="modulepreload"[^>]*>/g) ?? [];
    expect(modulePreloads.length, path).toBeGreaterThan(0);
    for (const link of modulePreloads) expect(link, path).toContain('fetchpriority="low"');
    const messagePreloads = html.match(/<link rel="preload"[^>]*as="fetch"[^>]*>/g) ?? [];
    expect(messagePreloads.length, path).toBeGreaterThan(0);
    for (const link of messagePreloads) expect(link.toLowerCase(), path).toContain('fetchpriority="low"');
  }

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
