import { expect, test } from "@playwright/test";
import { cards, chip, expectMoveInsWithin, expectNearestWithin, foundCount, UOM } from "./browse-page";

// The Browse screen without JavaScript, against the demo data (browse.spec.ts has the rest): the
// filter form, its path filters and plain page links work as a form and links.

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("filters by university and property type with the form", async ({ page }) => {
    await page.goto("/browse");
    const total = await foundCount(page);
    await page.getByLabel("University", { exact: true }).selectOption({ label: UOM });
    await page.getByLabel("Property Type", { exact: true }).selectOption({ label: "Single Room" });
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/\/browse\?.*university=University\+of\+Moratuwa/);
    await expect(page).toHaveURL(/propertyType=single/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Boarding places near ${UOM}`);
    await expect(chip(page, UOM)).toBeVisible();
    await expect(chip(page, "Single Room")).toBeVisible();
    const found = await foundCount(page);
    expect(found).toBeGreaterThanOrEqual(1);
    expect(found).toBeLessThan(total);
    for (const card of await cards(page).all()) {
      await expect(card.getByText(UOM, { exact: true })).toBeVisible();
      await expect(card.getByText("Single Room", { exact: true })).toBeVisible();
    }

    // Chips are plain links.
    await chip(page, "Single Room").click();
    await expect(chip(page, "Single Room")).toHaveCount(0);
    await expect(chip(page, UOM)).toBeVisible();
    expect(await foundCount(page)).toBeGreaterThanOrEqual(found);
  });

  test("filters by the maximum move-in cost with the form (ADR 047)", async ({ page }) => {
    await page.goto("/browse");
    await page.getByLabel("Max move-in cost (LKR)", { exact: true }).selectOption({ label: "LKR 60,000" });
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/maxMoveIn=60000/);
    await expectMoveInsWithin(page, 60_000);
    await expect(page.getByLabel("Max move-in cost (LKR)", { exact: true })).toHaveValue("60000");
  });

  test("offers no map without JavaScript: the list is the page (ADR 053)", { tag: "@ui-only" }, async ({ page }) => {
    await page.goto("/browse");
    await expect(cards(page).first()).toBeVisible();
    await expect(page.getByRole("button", { name: "Show map" })).toHaveCount(0);
    // Nor the room a script-running browser keeps for the button (first-paint.spec.ts).
    await expect(page.getByTestId("map-room")).toBeHidden();
    // A map link someone shared says what it needs and leads back to the same list.
    await page.goto("/browse/map?university=University%20of%20Moratuwa");
    await expect(page.getByText("The map needs JavaScript. The list shows the same places.")).toBeVisible();
    await page.getByRole("link", { name: "Back to the list" }).click();
    await expect(page).toHaveURL(/\/browse\?university=University/);
    await expect(chip(page, UOM)).toBeVisible();
  });

  test("filters by distance and sorts nearest first with the form (ADR 050)", async ({ page }) => {
    await page.goto("/university/university-of-moratuwa");
    await page.getByLabel("Within", { exact: true }).selectOption({ label: "10 km" });
    await page.getByLabel("Sort by").selectOption({ label: "Nearest first" });
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/within=10/);
    await expect(page).toHaveURL(/sort=nearest/);
    await expectNearestWithin(page, 10);
    await expect(page.getByLabel("Within", { exact: true })).toHaveValue("10");
    // A link that asks for distance with no university says what it left out.
    await page.goto("/browse?within=2&sort=nearest");
    await expect(page.getByTestId("browse-notice")).toContainText("distance, sort order");
  });

  test("filters by the facts students ask first with the form (ADR 051)", async ({ page }) => {
    await page.goto("/browse");
    await page.getByRole("checkbox", { name: "Attached bathroom" }).check();
    await page.getByLabel("Beds free", { exact: true }).selectOption({ label: "1 or more" });
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/bathroom=attached/);
    await expect(page).toHaveURL(/freeBeds=1/);
    await expect(chip(page, "At least 1 bed free")).toBeVisible();
    await expect(page.getByRole("checkbox", { name: "Attached bathroom" })).toBeChecked();
    // Beds are counted in shared rooms and hostels only, and each card found says how many are free.
    for (const card of await cards(page).all()) await expect(card).toContainText(/\d+ beds? free/);
  });

  test("keeps a path filter when the form is sent, and searches with Enter", async ({ page }) => {
    await page.goto("/search/Moratuwa");
    await page.getByRole("searchbox", { name: "Search" }).fill("room");
    await page.getByRole("searchbox", { name: "Search" }).press("Enter");
    await expect(page).toHaveURL(/\/browse\?search=room&.*location=Moratuwa/);
    await expect(chip(page, "Location: Moratuwa")).toBeVisible();
    await expect(chip(page, "“room”")).toBeVisible();
  });

  test("pages with plain links", async ({ page }) => {
    await page.goto("/browse");
    const nav = page.getByRole("navigation", { name: "Pagination" });
    await nav.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/browse\?page=2$/);
    // The number of pages can move by one as other tests post and remove listings.
    await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
    await nav.getByRole("link", { name: "Page 3" }).click();
    await expect(page.getByText(/^Page 3 of \d+$/)).toBeVisible();
    await nav.getByRole("link", { name: "First" }).click();
    await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();
  });
});
