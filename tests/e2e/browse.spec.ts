import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import {
  cardDistances,
  cardPrices,
  cards,
  chip,
  expectMoveInsWithin,
  expectNearestWithin,
  foundCount,
  gotoHydrated,
  UOM,
} from "./browse-page";

// The Browse screen against the demo data: at least 40 active listings, one single room at the
// University of Moratuwa, one listing with 3 photos, every listing with a photo. The same screen
// without JavaScript: browse-without-js.spec.ts.

test.describe("with JavaScript", () => {
  test("lists public listings as cards, 10 to a page, without phone numbers", async ({ page }) => {
    const response = await page.goto("/browse");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle("Browse boarding places | Bodima");
    await expect(page.getByRole("heading", { level: 1, name: "Browse boarding places" })).toBeVisible();
    const total = await foundCount(page);
    expect(total).toBeGreaterThanOrEqual(40);
    await expect(page.getByText(`Page 1 of ${Math.ceil(total / 10)}`)).toBeVisible();
    await expect(cards(page)).toHaveCount(10);
    await expect(page.getByRole("searchbox", { name: "Search" })).toHaveAttribute(
      "placeholder",
      /title, description, location or university/,
    );
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/browse$/);

    const first = cards(page).first();
    await expect(first.getByText(/^LKR [\d,]+\/month$/)).toBeVisible();
    await expect(first.getByText(/^Posted [A-Z][a-z]{2} \d{1,2}, \d{4}$/)).toBeVisible();
    await expect(first.getByText(/^\d+ views?$/)).toBeVisible();
    await expect(first.getByText(/^(Single Room|Shared Room|Apartment|Hostel Room)$/)).toBeVisible();
    await expect(first.getByText(/^(Any gender|Male|Female) preferred$/)).toBeVisible();
    const image = first.getByRole("img");
    await expect(image).toHaveAttribute("alt", /.+/);
    await expect(image).toHaveAttribute("sizes", /.+/);
    await expect(image).toHaveAttribute("width", /^\d+$/);
    await expect(cards(page).nth(5).getByRole("img")).toHaveAttribute("loading", "lazy");

    // Phone numbers only appear on the listing page.
    expect(await page.getByRole("main").innerText()).not.toMatch(/\b0\d{9}\b/);

    // The title link covers the card and opens the listing; 'See location' opens it too.
    const title = (await first.getByRole("heading").textContent()) ?? "";
    const href = await first.getByRole("link", { name: title, exact: true }).getAttribute("href");
    expect(href).toMatch(/^\/listing\/[a-z0-9-]+-\d+$/);
    await expect(first.getByRole("link", { name: /^See location/ })).toHaveAttribute("href", href!);
    await first.click({ position: { x: 40, y: 40 } });
    await expect(page).toHaveURL(href!);
  });

  test("shows a photo count badge on cards with more than one photo", { tag: "@ui-only" }, async ({ page }) => {
    await page.goto("/browse");
    const totalPages = Math.ceil((await foundCount(page)) / 10);
    let badge = false;
    for (let n = 1; n <= totalPages && !badge; n++) {
      if (n > 1) await page.goto(`/browse?page=${n}`);
      const counts = await cards(page)
        .getByText(/^\d+ photos$/)
        .allTextContents();
      expect(counts.every((c) => Number.parseInt(c, 10) > 1)).toBe(true);
      badge = counts.includes("3 photos");
    }
    expect(badge, "a listing with 3 photos shows '3 photos'").toBe(true);
  });

  test("filters update the results, chips and URL, replacing the history entry", async ({ page }) => {
    await gotoHydrated(page, "/browse");
    const total = await foundCount(page);
    const historyLength = await page.evaluate(() => history.length);

    await page.getByLabel("University", { exact: true }).selectOption({ label: UOM });
    await expect(page).toHaveURL(/\/browse\?university=University\+of\+Moratuwa$/);
    await expect(chip(page, UOM)).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Boarding places near ${UOM}`);
    await expect(page).toHaveTitle(`Boarding places near ${UOM} | Bodima`);
    // A faculty choice appears once a university is chosen.
    await expect(page.getByLabel("Faculty", { exact: true })).toBeVisible();
    const atUom = await foundCount(page);
    expect(atUom).toBeGreaterThanOrEqual(1);
    expect(atUom).toBeLessThan(total);

    await page.getByLabel("Property Type", { exact: true }).selectOption({ label: "Single Room" });
    await expect(page).toHaveURL(/university=University\+of\+Moratuwa&propertyType=single$/);
    await expect(chip(page, "Single Room")).toBeVisible();
    await expect(cards(page).first()).toBeVisible();
    for (const card of await cards(page).all()) {
      await expect(card.getByText(UOM, { exact: true })).toBeVisible();
      await expect(card.getByText("Single Room", { exact: true })).toBeVisible();
    }

    // Typed prices apply after a short pause, as whole numbers.
    await page.getByLabel("Min", { exact: true }).fill("1000");
    await expect(page).toHaveURL(/minPrice=1000(&|$)/);
    await expect(chip(page, "From LKR 1,000")).toBeVisible();
    await page.getByLabel("Max", { exact: true }).fill("60000");
    await expect(page).toHaveURL(/maxPrice=60000(&|$)/);
    for (const price of await cardPrices(page)) expect(price).toBeGreaterThanOrEqual(1000);

    await page.getByLabel("Gender Preference", { exact: true }).selectOption({ label: "Female Only" });
    await expect(page).toHaveURL(/gender=female/);
    await expect(chip(page, "Female Only")).toBeVisible();
    for (const card of await cards(page).all()) await expect(card).toContainText(/(Female|Any gender) preferred/);

    expect(await page.evaluate(() => history.length)).toBe(historyLength);
  });

  // @js-twin (ADR 098): on PostgreSQL the same filter runs in "filters by the maximum move-in cost with the form".
  test("the maximum move-in cost keeps only places that state a total within it (ADR 047)", {
    tag: "@js-twin",
  }, async ({ page }) => {
    await gotoHydrated(page, "/browse");
    const total = await foundCount(page);
    await page.getByLabel("Max move-in cost (LKR)", { exact: true }).selectOption({ label: "LKR 40,000" });
    await expect(page).toHaveURL(/\/browse\?maxMoveIn=40000$/);
    await expectMoveInsWithin(page, 40_000);
    expect(await foundCount(page)).toBeLessThan(total);
  });

  // @js-twin (ADR 098): on PostgreSQL the same filter and order run in "filters by distance and sorts nearest first with the form".
  test("with a university chosen, cards show the distance, 'Within' narrows and 'Nearest first' orders (ADR 050)", {
    tag: "@js-twin",
  }, async ({ page }) => {
    await gotoHydrated(page, "/browse");
    // No university, nothing to measure from: neither choice is offered.
    await expect(page.getByLabel("Within", { exact: true })).toHaveCount(0);
    await expect(page.getByRole("option", { name: "Nearest first" })).toHaveCount(0);
    await page.getByLabel("University", { exact: true }).selectOption({ label: UOM });
    await expect(page).toHaveURL(/university=University/);
    const all = await foundCount(page);
    await cardDistances(page);

    await page.getByLabel("Within", { exact: true }).selectOption({ label: "5 km" });
    await expect(page).toHaveURL(/within=5/);
    await expect(chip(page, "Within 5 km")).toBeVisible();
    await page.getByLabel("Sort by").selectOption({ label: "Nearest first" });
    await expect(page).toHaveURL(/sort=nearest/);
    await expectNearestWithin(page, 5);
    expect(await foundCount(page)).toBeLessThanOrEqual(all);

    // Without the university there is nothing to measure from: both go, with no complaint.
    await chip(page, UOM).click();
    await expect(page).toHaveURL(/\/browse$/);
    await expect(page.getByTestId("browse-notice")).toHaveCount(0);
  });

  test("'Must have' facts keep only places whose owners state them (ADR 051)", async ({ page }) => {
    await gotoHydrated(page, "/browse");
    const total = await foundCount(page);
    await page.getByRole("checkbox", { name: "Bills included" }).check();
    await expect(page).toHaveURL(/\/browse\?bills=included$/);
    await expect(chip(page, "Bills included")).toBeVisible();
    await expect(cards(page).first()).toBeVisible();
    for (const card of await cards(page).all())
      await expect(card.getByText("Bills included", { exact: true })).toBeVisible();
    expect(await foundCount(page)).toBeLessThan(total);
  });

  test("'Show map' puts the same results on a map, loaded only when asked (ADR 053)", async ({ page }) => {
    // Tests have no network: tile requests fail, and the markers must not need them.
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    await gotoHydrated(page, "/browse?university=University%20of%20Moratuwa");
    const loadedBefore = scripts.length;
    await expect(page.getByTestId("results-map")).toHaveCount(0);
    const mapCall = page.waitForRequest((request) => request.url().includes("/browse/map"));
    await page.getByRole("button", { name: "Show map" }).click();
    // The same filters.
    const url = new URL((await mapCall).url());
    expect(url.searchParams.get("university")).toBe(UOM);
    const map = page.getByRole("region", { name: "Map of these boarding places" });
    await expect(map).toBeVisible();
    // The map's code came with the click, not with the page.
    expect(scripts.length).toBeGreaterThan(loadedBefore);
    await expect(page.getByText(/^The first \d+ places? of \d+ on the map/)).toBeVisible();
    const markers = map.locator(".bodima-marker");
    await expect(markers.first()).toBeVisible();
    // A single place opens a card linking to its listing; a cluster opens wider or lists its places.
    let link = map.locator(".leaflet-popup a[href^='/listing/']");
    for (let i = 0; i < 6 && (await link.count()) === 0; i++) {
      const single = map.locator(".bodima-marker:not(.bodima-cluster)");
      await ((await single.count()) > 0 ? single.first() : markers.first()).click();
      await page.waitForTimeout(400);
      link = map.locator(".leaflet-popup a[href^='/listing/']");
    }
    await expect(link.first()).toBeVisible();
    await expect(map.getByRole("link", { name: "OpenStreetMap contributors", exact: false })).toHaveAttribute(
      "href",
      "https://www.openstreetmap.org/copyright",
    );
    await page.getByRole("button", { name: "Hide map" }).click();
    await expect(map).toHaveCount(0);
  });

  test("a map that cannot load says so and leaves the list where it was (ADR 053)", { tag: "@ui-only" }, async ({
    page,
  }) => {
    await gotoHydrated(page, "/browse?university=University%20of%20Moratuwa");
    // The network drops when the map is asked for.
    await page.route("**/browse/map*", (route) => route.abort());
    await page.getByRole("button", { name: "Show map" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "The map could not be loaded." })).toBeVisible();
    await expect(cards(page).first()).toBeVisible();
    await expect(chip(page, UOM)).toBeVisible();
  });

  test("search text applies after a pause and a filter change goes back to page 1", async ({ page }) => {
    await gotoHydrated(page, "/browse?page=2");
    await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
    await page.getByRole("searchbox", { name: "Search" }).fill("moratuwa");
    await expect(page).toHaveURL(/\/browse\?search=moratuwa$/);
    await expect(chip(page, "“moratuwa”")).toBeVisible();
    // With search text the default order is the best match.
    await expect(page.getByLabel("Sort by", { exact: true })).toHaveValue("");
    await expect(page.getByLabel("Sort by", { exact: true }).locator("option:checked")).toHaveText("Best match");
    expect(await foundCount(page)).toBeGreaterThanOrEqual(1);

    await page.getByLabel("Sort by", { exact: true }).selectOption({ label: "Price: low to high" });
    await expect(page).toHaveURL(/search=moratuwa&sort=price_asc$/);
    // The address changes as the new results render: wait for the order rather than read once.
    await expect
      .poll(async () => {
        const prices = await cardPrices(page);
        return prices.length > 0 && prices.every((price, i) => i === 0 || prices[i - 1] <= price);
      })
      .toBe(true);
  });

  // @js-twin (ADR 098): removing chips is the page's work; on PostgreSQL its filters (a university, a type, a
  // highest price) are sent by "filters update the results, chips and URL…", no filter by most tests.
  test("removing a chip and clearing all filters", { tag: "@js-twin" }, async ({ page }) => {
    await gotoHydrated(page, `/browse?university=UOM&propertyType=single&maxPrice=50000`);
    await expect(chip(page, UOM)).toBeVisible();
    const narrow = await foundCount(page);
    await chip(page, "Single Room").click();
    await expect(page).toHaveURL(/\/browse\?university=University\+of\+Moratuwa&maxPrice=50000$/);
    await expect(chip(page, "Single Room")).toHaveCount(0);
    await expect(chip(page, UOM)).toBeVisible();
    await expect(page.getByLabel("Property Type", { exact: true })).toHaveValue("");
    expect(await foundCount(page)).toBeGreaterThanOrEqual(narrow);

    await page.getByRole("link", { name: "Clear all filters" }).click();
    await expect(page).toHaveURL(/\/browse$/);
    await expect(page.getByRole("link", { name: /^Remove filter/ })).toHaveCount(0);
    await expect(page.getByLabel("University", { exact: true })).toHaveValue("");
    expect(await foundCount(page)).toBeGreaterThanOrEqual(40);
  });

  test("pages forward and back, keeping the filters", async ({ page }) => {
    await gotoHydrated(page, "/browse");
    const cardLinks = () => cards(page).getByRole("heading").getByRole("link");
    const firstHrefs = await cardLinks().evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    const nav = page.getByRole("navigation", { name: "Pagination" });
    await expect(nav.locator('[aria-current="page"]')).toContainText("1");

    await nav.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/browse\?page=2$/);
    // The number of pages can move by one as other tests post and remove listings.
    await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
    await expect(nav.locator('[aria-current="page"]')).toContainText("2");
    const secondHrefs = await cardLinks().evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(secondHrefs).toHaveLength(10);
    // Other listings than page 1's; a listing another test posts meanwhile pushes page 1's last ones here.
    expect(secondHrefs.filter((href) => firstHrefs.includes(href)).length).toBeLessThanOrEqual(2);

    await nav.getByRole("link", { name: "Previous" }).click();
    await expect(page).toHaveURL(/\/browse$/);
    await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();
    // Page 1's cards again. Other tests post and remove listings meanwhile, and the newest come first,
    // so a few may differ from the first visit; the rest are the same, in the same order.
    const shownAgain = async () => {
      const hrefs = await cardLinks().evaluateAll((links) => links.map((a) => a.getAttribute("href")));
      return hrefs.filter((href) => firstHrefs.includes(href));
    };
    await expect.poll(async () => (await shownAgain()).length).toBeGreaterThanOrEqual(7);
    const kept = await shownAgain();
    expect(kept).toEqual(firstHrefs.filter((href) => kept.includes(href)));

    await nav.getByRole("link", { name: "Last" }).click();
    await expect(page.getByText(/^Page (\d+) of \1$/)).toBeVisible();
    await expect(nav.getByText("Next")).toHaveAttribute("aria-disabled", "true");
  });

  test("/university/UOM shows that university's listings and keeps it when filters change", async ({ page }) => {
    await gotoHydrated(page, "/university/UOM");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Boarding places near ${UOM}`);
    await expect(page).toHaveTitle(`Boarding places near ${UOM} | Bodima`);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      "content",
      /^\d+ boarding places? near University of Moratuwa/,
    );
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      "href",
      /\/university\/university-of-moratuwa$/,
    );
    const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
    const breadcrumb = JSON.parse(jsonLd.find((text) => text.includes("BreadcrumbList")) ?? "{}");
    expect(breadcrumb.itemListElement.map((i: { name: string }) => i.name)).toEqual(["Home", "Browse", UOM]);
    await expect(page.getByLabel("University", { exact: true })).toHaveValue(UOM);
    expect(await foundCount(page)).toBeGreaterThanOrEqual(1);
    for (const card of await cards(page).all()) await expect(card.getByText(UOM, { exact: true })).toBeVisible();

    await page.getByLabel("Property Type", { exact: true }).selectOption("single");
    await expect(page).toHaveURL(/\/university\/UOM\?propertyType=single$/);
    await expect(chip(page, UOM)).toBeVisible();
    await expect(chip(page, "Single Room")).toBeVisible();
    expect(await foundCount(page)).toBeGreaterThanOrEqual(1);
  });

  test("/city/moratuwa and /search/Moratuwa show filtered results", async ({ page }) => {
    await page.goto("/city/moratuwa");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Boarding places in Moratuwa");
    await expect(page).toHaveTitle("Boarding places in Moratuwa | Bodima");
    await expect(chip(page, "City: Moratuwa")).toBeVisible();
    const inCity = await foundCount(page);
    expect(inCity).toBeGreaterThanOrEqual(1);

    await page.goto("/search/Moratuwa");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Boarding places in Moratuwa");
    await expect(chip(page, "Location: Moratuwa")).toBeVisible();
    const atLocation = await foundCount(page);
    expect(atLocation).toBeGreaterThanOrEqual(1);
    await page.goto("/browse");
    expect(await foundCount(page)).toBeGreaterThan(atLocation);

    await page.goto(`/search/Moratuwa/UOM`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Boarding places in Moratuwa near ${UOM}`);
    for (const card of await cards(page).all()) await expect(card.getByText(UOM, { exact: true })).toBeVisible();
  });

  test("shows the empty state when nothing matches", { tag: "@ui-only" }, async ({ page }) => {
    await page.goto("/browse?search=qqzzxxnothingmatches");
    await expect(page.getByRole("heading", { name: "0 boarding places found" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "No listings found" })).toBeVisible();
    await expect(page.getByText("Try adjusting your search criteria or check back later.")).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
    await expect(page.getByRole("navigation", { name: "Pagination" })).toHaveCount(0);
  });

  test("a page past the end shows the empty state with links back", { tag: "@ui-only" }, async ({ page }) => {
    const response = await page.goto("/browse?page=999");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "No listings found" })).toBeVisible();
    await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Previous" }).click();
    await expect(cards(page).first()).toBeVisible();
    await expect(page).toHaveURL(/page=\d+$/);
  });

  test("ignores invalid values with a notice instead of failing", { tag: "@ui-only" }, async ({ page }) => {
    await page.goto("/browse");
    const total = await foundCount(page);
    const response = await page.goto("/browse?minPrice=abc&propertyType=castle&page=x");
    expect(response?.status()).toBe(200);
    await expect(page.getByText("Some filters in this link were ignored")).toBeVisible();
    await expect(page.getByText(/minimum price, property type, page number/)).toBeVisible();
    expect(await foundCount(page)).toBe(total);
    await expect(cards(page)).toHaveCount(10);
  });

  test("has no serious or critical accessibility violations", { tag: "@ui-only" }, async ({ page }) => {
    await page.goto("/browse?university=UOM");
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(
      serious,
      JSON.stringify(
        serious.map((v) => [v.id, v.nodes.map((n) => n.target)]),
        null,
        2,
      ),
    ).toEqual([]);
  });
});

test.describe("on a phone (390 px)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("shows only Previous and Next, and filters in a drawer", { tag: "@ui-only" }, async ({ page }) => {
    await gotoHydrated(page, "/browse?page=2");
    const nav = page.getByRole("navigation", { name: "Pagination" });
    await expect(nav.getByRole("link", { name: "Previous" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Next" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "First" })).toBeHidden();
    await expect(nav.getByRole("link", { name: "Last" })).toBeHidden();
    await expect(nav.getByRole("link", { name: "Page 1" })).toBeHidden();
    await expect(nav.locator('[aria-current="page"]')).toBeHidden();

    const university = page.getByLabel("University", { exact: true });
    await expect(university).toBeHidden();
    await page.locator("summary", { hasText: "Filters" }).click();
    await expect(university).toBeVisible();
    await university.selectOption({ label: UOM });
    await expect(page).toHaveURL(/\/browse\?university=University\+of\+Moratuwa$/);
    await expect(chip(page, UOM)).toBeVisible();
  });

  test("has no serious or critical accessibility violations", { tag: "@ui-only" }, async ({ page }) => {
    await page.goto("/browse");
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(
      serious,
      JSON.stringify(
        serious.map((v) => [v.id, v.nodes.map((n) => n.target)]),
        null,
        2,
      ),
    ).toEqual([]);
  });
});
