import { expect, test } from "@playwright/test";

// A phone several times slower than this machine (Chrome's CPU throttling): a tap on a link
// while the page is still hydrating must not be lost. It was, on browse, while the shortlist's
// Save buttons read their cookie through useSyncExternalStore (ADR 054): React Router took the
// tap, then its start-up replaced the address and the navigation never happened.

test.describe("on a slow phone, a tap while the page hydrates", () => {
  test.beforeEach(async ({ page }) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 8 });
  });

  for (const wait of [0, 100, 200]) {
    test(`follows browse's Next link (${wait} ms after the load)`, async ({ page }) => {
      await page.goto("/browse");
      await page.waitForTimeout(wait);
      await page.getByRole("link", { name: /^Next/ }).first().click();
      await expect(page).toHaveURL(/\/browse\?page=2$/, { timeout: 10_000 });
    });
  }

  test("follows a listing page's breadcrumb", async ({ page }) => {
    await page.goto("/browse");
    const href = await page.locator('main article a[href^="/listing/"]').first().getAttribute("href");
    await page.goto(href!);
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Browse" }).click();
    await expect(page).toHaveURL(/\/browse$/, { timeout: 10_000 });
  });
});
