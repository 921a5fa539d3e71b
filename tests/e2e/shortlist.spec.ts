import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page, test } from "@playwright/test";

// The shortlist (ADR 054) in a real browser: 'Save' on browse cards
// and listing pages with JavaScript (in place) and without it (a form post that
// lands on /shortlist), the comparison on a wide screen and cards on a phone,
// and a page that is never cached. Each test is a new browser (its own visitor
// id), so the demo listings can be saved by every test at once.

const cards = (page: Page) => page.locator("main article");
/** A button's name: its visible word, then ': ' and the place's title (read out only). */
const label = (word: string, title: string) =>
  new RegExp(`^${word} ?: ${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);

/**
 * Waits until React has hydrated the button and, for a form that posts in place, the form says
 * so (its enhanced=1 field, added once hydrated), so a press goes through JavaScript.
 */
async function hydrated(locator: Locator) {
  await locator.evaluate(
    (element) =>
      new Promise<void>((resolve) => {
        const check = () =>
          Object.keys(element).some((key) => key.startsWith("__reactProps")) &&
          element.closest("form")?.querySelector('input[name="enhanced"]')
            ? resolve()
            : setTimeout(check, 50);
        check();
      }),
  );
}

/** Presses a Save or Saved button that posts through the fetcher, and waits for the answer (not only the optimistic label). */
async function pressAndWait(page: Page, button: Locator) {
  await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/shortlist")),
    button.click(),
  ]);
}

/** The first card's title and its Save button. */
async function firstCard(page: Page): Promise<{ title: string; save: Locator }> {
  const card = cards(page).first();
  const title = (await card.locator("h3 a, h2 a").first().innerText()).trim();
  return { title, save: card.getByRole("button", { name: label("Save", title) }) };
}

test.describe("with JavaScript", () => {
  test("saves a card in place, keeps it saved after a reload, compares it and removes it", async ({ page }) => {
    await page.goto("/browse");
    const { title, save } = await firstCard(page);
    await hydrated(save);
    await pressAndWait(page, save);
    const saved = cards(page)
      .first()
      .getByRole("button", { name: label("Saved", title) });
    await expect(saved).toBeVisible();
    await expect(page).toHaveURL(/\/browse$/);

    // The script marks it on a reload, while the page itself stays the shared one from the page cache.
    await page.reload();
    await expect(saved).toBeVisible();
    await page.request.get("/browse");
    expect((await page.request.get("/browse")).headers()["x-page-cache"]).toBe("HIT");

    await page.getByRole("link", { name: "Shortlist" }).first().click();
    await expect(page).toHaveURL(/\/shortlist$/);
    await expect(page.getByRole("heading", { level: 1, name: "Your shortlist" })).toBeVisible();
    await expect(page.getByTestId("shortlist-count")).toHaveText("1 place saved");
    const table = page.getByTestId("shortlist-table");
    await expect(table.getByRole("link", { name: title })).toBeVisible();
    await expect(table.getByRole("rowheader", { name: "Rent" })).toBeVisible();
    await expect(table.getByRole("rowheader", { name: "Move-in cost" })).toBeVisible();
    await expect(table.getByRole("link", { name: "Call Now" })).toHaveAttribute("href", /^tel:/);

    await table.getByRole("button", { name: label("Remove", title) }).click();
    await expect(page.getByTestId("shortlist-notice")).toHaveText(/Removed from your shortlist\./);
    await expect(page.getByRole("heading", { name: "Nothing saved yet" })).toBeVisible();

    // Back on browse, the card is no longer marked.
    await page.goto("/browse");
    await hydrated(save);
    await expect(save).toBeVisible();
  });

  test("saves from the listing page, and 'Saved' removes it again", async ({ page }) => {
    await page.goto("/browse");
    const { title } = await firstCard(page);
    await cards(page).first().locator("h3 a, h2 a").first().click();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    const save = page.getByRole("button", { name: label("Save", title) });
    await hydrated(save);
    await pressAndWait(page, save);
    const saved = page.getByRole("button", { name: label("Saved", title) });
    await expect(saved).toBeVisible();
    await pressAndWait(page, saved);
    await expect(save).toBeVisible();
    await page.goto("/shortlist");
    await expect(page.getByRole("heading", { name: "Nothing saved yet" })).toBeVisible();
  });

  test("the shortlist page is private: never cached, never indexed, and accessible", async ({ page }) => {
    await page.goto("/browse");
    const { save } = await firstCard(page);
    await hydrated(save);
    await pressAndWait(page, save);
    await expect(
      cards(page)
        .first()
        .getByRole("button", { name: /^Saved ?: / }),
    ).toBeVisible();
    const response = await page.goto("/shortlist");
    // This browser may keep it (offline, ADR 088); no shared cache may.
    expect(response?.headers()["cache-control"]).toBe("private, no-cache");
    expect(response?.headers()["x-page-cache"]).toBeUndefined();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    const { violations } = await new AxeBuilder({ page }).analyze();
    const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  });
  test("copies the shared link", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto("/browse");
    const { save } = await firstCard(page);
    await hydrated(save);
    await pressAndWait(page, save);
    await page.goto("/shortlist");
    const share = page.getByRole("button", { name: "Share this shortlist" });
    await hydrated(share);
    await share.click();
    const copy = page.getByRole("button", { name: "Copy link" });
    await copy.click();
    await expect(page.getByText("Link copied.")).toBeVisible();
    const url = await page.getByLabel("Link to your shortlist").inputValue();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("shows saved places as cards", async ({ page }) => {
    await page.goto("/browse");
    const { title, save } = await firstCard(page);
    await hydrated(save);
    await pressAndWait(page, save);
    await expect(
      cards(page)
        .first()
        .getByRole("button", { name: label("Saved", title) }),
    ).toBeVisible();
    await page.goto("/shortlist");
    await expect(page.getByTestId("shortlist-table")).toBeHidden();
    const card = page.getByTestId("shortlist-cards").getByRole("article");
    await expect(card.getByRole("link", { name: title })).toBeVisible();
    await expect(card.getByText("Rent")).toBeVisible();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Save posts the form and lands on the shortlist, with a way back; Remove works too", async ({ page }) => {
    await page.goto("/browse?city=kandy");
    const { title, save } = await firstCard(page);
    await save.click();
    // Post/Redirect/Get: a reload does not post again.
    await expect(page).toHaveURL(/\/shortlist\?done=saved&back=%2Fbrowse%3Fcity%3Dkandy$/);
    await expect(page.getByTestId("shortlist-notice")).toHaveText(/Saved to your shortlist\./);
    await expect(page.getByTestId("shortlist-table").getByRole("link", { name: title })).toBeVisible();

    await page.getByRole("link", { name: "Back to where you were" }).click();
    await expect(page).toHaveURL(/\/browse\?city=kandy$/);

    await page.goto("/shortlist");
    await page
      .getByTestId("shortlist-table")
      .getByRole("button", { name: label("Remove", title) })
      .click();
    await expect(page.getByTestId("shortlist-notice")).toHaveText(/Removed from your shortlist\./);
    await expect(page.getByRole("heading", { name: "Nothing saved yet" })).toBeVisible();
  });

  test("speaks the page's language", async ({ page }) => {
    await page.goto("/si/browse");
    const card = cards(page).first();
    await card.getByRole("button", { name: /^සුරකින්න ?: / }).click();
    await expect(page).toHaveURL(/\/si\/shortlist\?done=saved/);
    await expect(page.getByRole("heading", { level: 1, name: "ඔබේ සුරැකි ලැයිස්තුව" })).toBeVisible();
    await expect(page.getByTestId("shortlist-notice")).toHaveText(/ඔබේ ලැයිස්තුවට සුරැකුණා\./);
  });

  test("shares the list by a link: read-only for the person given it, current, and dead once stopped", async ({
    page,
    browser,
  }) => {
    await page.goto("/browse");
    const { title, save } = await firstCard(page);
    await save.click();
    await page.getByRole("button", { name: "Share this shortlist" }).click();
    await expect(page.getByTestId("shortlist-notice")).toHaveText(/Your shortlist is shared\./);
    const link = page.getByLabel("Link to your shortlist");
    const url = await link.inputValue();
    expect(url).toMatch(/\/s\/[a-z2-9]{12}$/);
    await expect(page.getByRole("link", { name: "Send on WhatsApp" })).toHaveAttribute(
      "href",
      `https://wa.me/?text=${encodeURIComponent(`Boarding places I saved on Bodima: ${url}`)}`,
    );

    // A parent opens the link on another phone, without an account or the owner's cookies.
    const parent = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
    await parent.goto(url);
    await expect(parent.getByRole("heading", { level: 1, name: "A shared shortlist" })).toBeVisible();
    await expect(parent.getByTestId("shortlist-table").getByRole("link", { name: title })).toBeVisible();
    await expect(parent.getByRole("button", { name: /Remove/ })).toHaveCount(0);

    // The owner removes the place: the shared copy shows the list as it is now.
    await page
      .getByTestId("shortlist-table")
      .getByRole("button", { name: label("Remove", title) })
      .click();
    await parent.reload();
    await expect(parent.getByText("This shortlist is empty at the moment.")).toBeVisible();

    await page.goto("/browse");
    await firstCard(page).then(({ save: again }) => again.click());
    await page.getByRole("button", { name: "Stop sharing" }).click();
    await expect(page.getByTestId("shortlist-notice")).toHaveText(/Sharing stopped/);
    const gone = await parent.goto(url);
    expect(gone?.status()).toBe(404);
    await expect(parent.getByRole("heading", { name: "This shortlist is no longer shared" })).toBeVisible();
    await parent.context().close();
  });
});
