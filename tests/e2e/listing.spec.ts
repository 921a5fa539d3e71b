import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { withProjectDatabase } from "./server-db";

// The listing page against the demo data: a listing with 3 photos is found
// the way a visitor finds it, through a '3 photos' card on /browse.

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

async function cardLinks(page: Page, filter?: string): Promise<string[]> {
  const cards = filter ? page.locator("article").filter({ hasText: filter }) : page.locator("article");
  return cards
    .getByRole("heading")
    .getByRole("link")
    .evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
}

/** The path of the first listing on /browse whose card says '3 photos'. */
async function findThreePhotoListing(browser: Browser): Promise<string> {
  const page = await browser.newPage();
  try {
    for (let n = 1; n <= 10; n++) {
      await page.goto(`/browse?page=${n}`);
      const [href] = await cardLinks(page, "3 photos");
      if (href) return href;
    }
    throw new Error("No listing with 3 photos on the first 10 browse pages");
  } finally {
    await page.close();
  }
}

/** The oldest listing (last card of the last browse page): the one other tests are least likely to open. */
async function findQuietListing(browser: Browser, avoid: string): Promise<string> {
  const page = await browser.newPage();
  try {
    await page.goto("/browse");
    const pages = Number(/Page \d+ of (\d+)/.exec(await page.locator("main").innerText())?.[1] ?? 1);
    await page.goto(`/browse?page=${pages}`);
    const links = (await cardLinks(page)).filter((href) => href !== avoid);
    const last = links[links.length - 1];
    if (!last) throw new Error("No listing on the last browse page");
    return last;
  } finally {
    await page.close();
  }
}

/** Views are written in batches once a second (app/models/view-tracking.server.ts): two batches and some slack. */
const FLUSHED_MS = 2_500;

/** The listing's view counter as stored, without the page cache's few seconds of lag. */
function storedViews(path: string): Promise<number> {
  const id = Number(/-(\d+)$/.exec(path)![1]);
  return withProjectDatabase(async (db) => {
    const row = await db.selectFrom("listing_counters").select("views").where("listingId", "=", id).executeTakeFirst();
    return Number(row?.views ?? 0);
  });
}

async function viewCount(page: Page): Promise<number> {
  const text = await page.getByTestId("view-count").innerText();
  const match = /([\d,]+) views?/.exec(text);
  if (!match) throw new Error(`No view count in "${text}"`);
  return Number(match[1].replace(/,/g, ""));
}

let threePhotoPath: string;

test.beforeAll(async ({ browser }) => {
  threePhotoPath = await findThreePhotoListing(browser);
});

test.describe("listing page", () => {
  test("gallery: previous and next wrap around, thumbnails pick a photo, the counter follows", {
    tag: "@ui-only",
  }, async ({ page }) => {
    await page.goto(threePhotoPath);
    const gallery = page.getByRole("region", { name: "Photos" });
    const counter = gallery.getByTestId("gallery-counter");
    await expect(counter).toHaveText("1 / 3");
    const next = gallery.getByRole("button", { name: "Next photo" });
    const previous = gallery.getByRole("button", { name: "Previous photo" });
    await next.click();
    await expect(counter).toHaveText("2 / 3");
    await next.click();
    await expect(counter).toHaveText("3 / 3");
    await next.click();
    await expect(counter).toHaveText("1 / 3");
    await previous.click();
    await expect(counter).toHaveText("3 / 3");

    const mainPhoto = gallery.getByRole("link", { name: /full screen/ }).locator("img");
    const thirdSrc = await mainPhoto.getAttribute("src");
    await gallery.getByRole("link", { name: "Show photo 2 of 3" }).click();
    await expect(counter).toHaveText("2 / 3");
    await expect(gallery.getByRole("link", { name: "Show photo 2 of 3" })).toHaveAttribute("aria-current", "true");
    expect(await mainPhoto.getAttribute("src")).not.toBe(thirdSrc);
    await expect(page).toHaveURL(threePhotoPath);
  });

  test("lightbox: opens full screen, arrow keys move, Tab stays inside, Escape closes and returns focus", {
    tag: "@ui-only",
  }, async ({ page }) => {
    await page.goto(threePhotoPath);
    // The lightbox is the enhanced gallery: wait until the page has hydrated (after its first paint, ADR 035).
    await page.locator('button[aria-controls="site-menu"]').waitFor({ state: "attached" });
    const opener = page.getByRole("link", { name: "Open photo 1 full screen" });
    await opener.click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAttribute("aria-modal", "true");
    await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
    await expect(dialog.getByText("1 / 3")).toBeVisible();
    await expect(dialog.locator("img")).toBeVisible();

    await page.keyboard.press("ArrowRight");
    await expect(dialog.getByText("2 / 3")).toBeVisible();
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await expect(dialog.getByText("3 / 3")).toBeVisible();

    for (let i = 0; i < 4; i++) {
      await page.keyboard.press("Tab");
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }

    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    // The gallery behind shows the photo the lightbox was on.
    await expect(page.getByTestId("gallery-counter")).toHaveText("3 / 3");
    await expect(page.getByRole("link", { name: "Open photo 3 full screen" })).toBeFocused();
  });

  test("the first photo loads at once with a responsive source and fixed dimensions", { tag: "@ui-only" }, async ({
    page,
  }) => {
    await page.goto(threePhotoPath);
    const img = page.getByRole("link", { name: "Open photo 1 full screen" }).locator("img");
    await expect(img).toHaveAttribute("fetchpriority", "high");
    await expect(img).not.toHaveAttribute("loading", "lazy");
    await expect(img).toHaveAttribute("srcset", /\d+w/);
    await expect(img).toHaveAttribute("sizes", /.+/);
    await expect(img).toHaveAttribute("width", /^\d+$/);
    await expect(img).toHaveAttribute("height", /^\d+$/);
    await expect(img).toHaveAttribute("alt", /.+/);
    expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  });

  test("shows the price, a Call Now phone link, details, safety notice and a report link", async ({ page }) => {
    await page.goto(threePhotoPath);
    await expect(page.getByText(/^LKR [\d,]+\/month$/).first()).toBeVisible();
    const call = page.getByRole("link", { name: "Call Now" });
    await expect(call).toBeVisible();
    await expect(call).toHaveAttribute("href", /^tel:\+?\d{7,}$/);
    await expect(page.getByRole("heading", { name: "Description" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Amenities" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Property details" })).toBeVisible();
    await expect(page.getByText("Contact person")).toBeVisible();
    await expect(page.getByTestId("view-count")).toHaveText(/^[\d,]+ views?$/);

    const location = page.locator("dt", { hasText: /^Location$/ }).locator("xpath=following-sibling::dd");
    const locationLink = location.getByRole("link");
    if ((await locationLink.count()) > 0) {
      await expect(locationLink).toHaveAttribute("target", "_blank");
      await expect(locationLink).toHaveAttribute("rel", "noopener noreferrer");
      await expect(locationLink).toHaveAttribute(
        "href",
        /^https:\/\/(www\.google\.com\/maps|maps\.google\.com|maps\.app\.goo\.gl|goo\.gl)/,
      );
    } else {
      await expect(location).toHaveText("Location not specified");
    }

    const safety = page.getByRole("region", { name: "Stay safe when renting" });
    // 'Never pay … before you have seen the place' stands beside Call Now instead (ADR 077).
    await expect(safety).toContainText("Be wary of an owner who asks for money by eZ Cash or bank deposit");
    await expect(safety).toContainText("is not responsible for transactions between users");

    const report = page.getByRole("link", { name: "Report This Listing" });
    await expect(report).toHaveAttribute("href", `${threePhotoPath}/report`);
  });

  test("has the listing's title, canonical link and structured data", async ({ page }) => {
    await page.goto(threePhotoPath);
    const title = (await page.getByRole("heading", { level: 1 }).innerText()).trim();
    await expect(page).toHaveTitle(`${title} | Bodima`);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`${threePhotoPath}$`));
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", /^https?:\/\/.+\/photos\//);
    const description = await page.locator('meta[name="description"]').getAttribute("content");
    expect(description?.length).toBeGreaterThan(0);
    expect(description!.length).toBeLessThanOrEqual(120);

    const blocks = await page
      .locator('script[type="application/ld+json"]')
      .evaluateAll((scripts) => scripts.map((s) => JSON.parse(s.textContent ?? "null")));
    const breadcrumb = blocks.find((b) => b?.["@type"] === "BreadcrumbList");
    expect(breadcrumb.itemListElement.map((i: { name: string }) => i.name)).toEqual([
      "Home",
      "Browse",
      expect.any(String),
      title,
    ]);
    const product = blocks.find((b) => b?.["@type"] === "Product");
    expect(product.offers).toMatchObject({ "@type": "Offer", priceCurrency: "LKR", price: expect.any(Number) });
    // The demo listings are written in English (ADR 029).
    expect(product.inLanguage).toBe("en");
  });

  test("an outdated slug redirects permanently to the current one", async ({ page }) => {
    const adNumber = /-(\d+)$/.exec(threePhotoPath)![1];
    const response = await page.goto(`/listing/old-title-${adNumber}`);
    expect(response?.status()).toBe(200);
    expect(response?.request().redirectedFrom()?.url()).toMatch(new RegExp(`/listing/old-title-${adNumber}$`));
    const redirect = await response?.request().redirectedFrom()?.response();
    expect(redirect?.status()).toBe(301);
    await expect(page).toHaveURL(new RegExp(`${threePhotoPath}$`));
  });

  test("has no serious or critical accessibility problems", { tag: "@ui-only" }, async ({ page }) => {
    test.slow(); // axe runs twice over a long page
    await page.goto(threePhotoPath);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Open photo 1 full screen" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test.describe("view counting", () => {
  // Views are written in batches once a second and a listing page may come
  // from the page cache for up to 5 seconds (ADR 012): the count a visitor
  // sees is at most a few seconds old, so each check waits for it to settle.
  const settled = { intervals: [500, 1000], timeout: 12_000 };

  test("counts once per browser session: a reload does not count, a new browser does", async ({ browser }) => {
    test.setTimeout(60_000);
    const path = await findQuietListing(browser, threePhotoPath);
    const first = await browser.newContext();
    const page = await first.newPage();
    await page.goto(path);
    const before = await viewCount(page);
    const shownAfterReload = async () => {
      await page.reload();
      return viewCount(page);
    };
    await expect.poll(shownAfterReload, settled).toBe(before + 1);

    // However often this browser reloaded, its session counted once: any view of those reloads
    // is in the database after two batches, and the stored counter says what the page will.
    await page.waitForTimeout(FLUSHED_MS);
    expect(await storedViews(path)).toBe(before + 1);

    const second = await browser.newContext();
    const other = await second.newPage();
    await other.goto(path);
    // The first browser sees the new total without adding to it.
    await expect.poll(shownAfterReload, settled).toBe(before + 2);
    await page.waitForTimeout(FLUSHED_MS);
    expect(await storedViews(path)).toBe(before + 2);
    await first.close();
    await second.close();
  });
});

test.describe("listing not found", () => {
  test("answers 404 with a way back to browsing, inside the site's header and footer", { tag: "@ui-only" }, async ({
    page,
  }) => {
    const response = await page.goto("/listing/does-not-exist-999999");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Listing not found" })).toBeVisible();
    await expect(page.getByText("The listing you're looking for doesn't exist or has been removed.")).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Browse Listings" })).toHaveAttribute(
      "href",
      "/browse",
    );
    await expect(page.locator("header").first()).toBeVisible();
    await expect(page.locator("footer").first()).toBeVisible();
    await expect(page).toHaveTitle("Listing not found | Bodima");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("price and Call Now stay in reach at the bottom of the screen", { tag: "@ui-only" }, async ({ page }) => {
    test.slow(); // includes an axe run
    await page.goto(threePhotoPath);
    const bar = page.getByTestId("mobile-call-bar");
    await expect(bar).toBeInViewport();
    await expect(bar.getByRole("link", { name: "Call Now" })).toHaveAttribute("href", /^tel:/);
    await expect(bar).toContainText(/LKR [\d,]+\/month/);
    await page.getByRole("heading", { name: "Property details" }).scrollIntoViewIfNeeded();
    await expect(bar).toBeInViewport();
    const box = await bar.boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(844 + 1);
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the first photo shows and every photo is reachable as a link", { tag: "@ui-only" }, async ({ page }) => {
    await page.goto(threePhotoPath);
    const gallery = page.getByRole("region", { name: "Photos" });
    await expect(gallery.getByTestId("gallery-counter")).toHaveText("1 / 3");
    await expect(gallery.getByRole("button")).toHaveCount(0);
    const thumbnails = gallery.getByRole("link", { name: /^Show photo \d of 3$/ });
    await expect(thumbnails).toHaveCount(3);
    const second = await thumbnails.nth(1).getAttribute("href");
    expect(second).toMatch(/^\/photos\//);
    const response = await page.request.get(second!);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toMatch(/^image\//);
    await expect(page.getByRole("link", { name: "Call Now" })).toHaveAttribute("href", /^tel:/);
  });
});

test.describe("POST /updateViewCount", () => {
  test("counts a view once per browser session and answers the spec's errors", async ({ playwright, baseURL }) => {
    const adNumber = /-(\d+)$/.exec(threePhotoPath)![1];
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36" },
    });
    try {
      expect((await api.get("/updateViewCount")).status()).toBe(405);

      const missing = await api.post("/updateViewCount", { data: {} });
      expect(missing.status()).toBe(400);
      expect(await missing.json()).toEqual({ error: "Ad ID is required" });

      const unknown = await api.post("/updateViewCount", { data: { adId: "999999" } });
      expect(unknown.status()).toBe(404);
      expect(await unknown.json()).toEqual({ error: "Ad not found" });

      const first = await api.post("/updateViewCount", { data: { adId: adNumber } });
      expect(first.status()).toBe(200);
      const counted = await first.json();
      expect(counted).toMatchObject({ adId: adNumber, counted: true });
      // The same cookie jar is the same browser session.
      const again = await (await api.post("/updateViewCount", { data: { adId: Number(adNumber) } })).json();
      expect(again).toMatchObject({ counted: false });
      expect(again.totalViews).toBeGreaterThanOrEqual(counted.totalViews);

      const crossSite = await api.post("/updateViewCount", {
        data: { adId: adNumber },
        headers: { Origin: "https://evil.example" },
      });
      expect(crossSite.status()).toBe(403);
    } finally {
      await api.dispose();
    }
  });
});
