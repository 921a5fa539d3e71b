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
