import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { cards } from "./browse-page";

// /old-browse: the classic card list, fed by the same code as /getAdsForSEO.

type Ad = { slug: string; title: string; amenities: string[] };
type ListBody = { ads: Ad[]; pagination: { page: number; total: number; totalPages: number } };

async function apiPage(request: APIRequestContext, page: number): Promise<ListBody> {
  const response = await request.get(`/getAdsForSEO?limit=20&page=${page}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as ListBody;
}

/**
 * The page's cards are the API's page `n`, in its order; returns that API page. Other tests write
 * to the same server meanwhile (a renewal moves a listing to the top, reports may hide one), and a
 * write landing between the page and the API shifts one of them: then both are read again (the page
 * reloaded). A page that stays different from the API fails.
 */
async function expectSameOrderAsApi(page: Page, request: APIRequestContext, n: number): Promise<ListBody> {
  const last: { api?: ListBody } = {};
  await expect(async () => {
    if (last.api) await page.reload();
    last.api = await apiPage(request, n);
    const titles = await cards(page).getByRole("heading", { level: 2 }).allTextContents();
    expect(titles).toEqual(last.api.ads.map((a) => a.title));
  }).toPass({ timeout: 15_000 });
  if (!last.api) throw new Error(`the API's page ${n} was never read`);
  return last.api;
}

test("shows 20 classic cards in the same order as the API", async ({ page, request }) => {
  const response = await page.goto("/old-browse");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("Browse listings (classic view) | Bodima");
  await expect(page.getByRole("heading", { level: 1, name: "Browse listings (classic view)" })).toBeVisible();
  await expect(cards(page)).toHaveCount(20);

  const api = await expectSameOrderAsApi(page, request, 1);
  await expect(page.getByText(`Page 1 of ${api.pagination.totalPages}`)).toBeVisible();

  const first = cards(page).first();
  await expect(first.getByText(/^LKR [\d,]+\/month$/)).toBeVisible();
  await expect(first.getByRole("img")).toHaveAttribute("alt", /.+/);
  await expect(first.getByRole("link", { name: api.ads[0].title })).toHaveAttribute(
    "href",
    `/listing/${api.ads[0].slug}`,
  );
});

test("shows the first 3 amenities and '+n more' for listings with more", async ({ page, request }) => {
  // Find a listing with more than 3 amenities, and the page it is on.
  let found: { ad: Ad; pageNumber: number } | undefined;
  let fewer: { ad: Ad; pageNumber: number } | undefined;
  const { pagination } = await apiPage(request, 1);
  for (let n = 1; n <= pagination.totalPages && !(found && fewer); n++) {
    const { ads } = await apiPage(request, n);
    const many = ads.find((a) => a.amenities.length > 3);
    const some = ads.find((a) => a.amenities.length > 0 && a.amenities.length <= 3);
    if (many && !found) found = { ad: many, pageNumber: n };
    if (some && !fewer) fewer = { ad: some, pageNumber: n };
  }
  expect(found, "demo data has a listing with more than 3 amenities").toBeDefined();
  const { ad, pageNumber } = found!;

  await page.goto(`/old-browse?page=${pageNumber}`);
  const card = cards(page)
    .filter({ has: page.getByRole("link", { name: ad.title, exact: true }) })
    .first();
  const amenities = card.getByRole("list", { name: "Amenities" }).getByRole("listitem");
  await expect(amenities).toHaveText([...ad.amenities.slice(0, 3), `+${ad.amenities.length - 3} more`]);

  if (fewer) {
    await page.goto(`/old-browse?page=${fewer.pageNumber}`);
    const other = cards(page)
      .filter({ has: page.getByRole("link", { name: fewer.ad.title, exact: true }) })
      .first();
    await expect(other.getByRole("list", { name: "Amenities" }).getByRole("listitem")).toHaveText(fewer.ad.amenities);
    await expect(other.getByText(/\+\d+ more/)).toHaveCount(0);
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the Next and Previous links page through the listings", async ({ page, request }) => {
    await page.goto("/old-browse");
    await expect(page.getByRole("link", { name: "Previous page" })).toHaveCount(0);
    await page.getByRole("link", { name: "Next page" }).click();
    await expect(page).toHaveURL(/\/old-browse\?page=2$/);

    const api = await expectSameOrderAsApi(page, request, 2);
    await expect(page.getByText(`Page 2 of ${api.pagination.totalPages}`)).toBeVisible();
    await expect(cards(page)).toHaveCount(api.ads.length);

    await page.getByRole("link", { name: "Previous page" }).click();
    await expect(page).toHaveURL(/\/old-browse$/);
    await expect(cards(page)).toHaveCount(20);
  });

  test("keeps filters when paging and explains invalid ones", async ({ page }) => {
    await page.goto("/old-browse?sort=price_asc");
    await expect(page.getByRole("link", { name: "Next page" })).toHaveAttribute(
      "href",
      "/old-browse?sort=price_asc&page=2",
    );
    const prices = (
      await cards(page)
        .getByText(/\/month$/)
        .allTextContents()
    ).map((p) => Number(p.replace(/\D/g, "")));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));

    await page.goto("/old-browse?propertyType=castle");
    await expect(page.getByRole("alert")).toContainText("propertyType must be one of");
    await page.getByRole("link", { name: "Show all listings" }).click();
    await expect(cards(page)).toHaveCount(20);
  });
});

test("has no serious or critical accessibility violations", async ({ page }) => {
  await page.goto("/old-browse");
  await expect(cards(page)).toHaveCount(20);
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
});
