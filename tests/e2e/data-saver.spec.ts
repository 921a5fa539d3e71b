import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";

// Data saver (ADR 090): the footer's switch, with and without JavaScript, remembered in a cookie
// and back on the page it was used on; the browser's Save-Data header; photos that wait for a tap
// and then load at their smallest size; read-only pages sent without their scripts.

type ApiPhoto = { url: string; variants: { url: string; width: number }[] };

/** A demo listing with at least two photos, and its first photo's smallest size. */
async function listingWithPhotos(request: APIRequestContext) {
  const body = (await (await request.get("/api/listings?limit=50")).json()) as {
    ads: { slug: string; photos: ApiPhoto[] }[];
  };
  const ad = body.ads.find((a) => a.photos.length >= 2);
  expect(ad, "a demo listing with two photos").toBeTruthy();
  const smallest = [...ad!.photos[0].variants].sort((a, b) => a.width - b.width)[0];
  return { path: `/listing/${ad!.slug}`, smallest: smallest.url };
}

/** Every photo the page asks for from now on. */
function photoRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "image" && new URL(request.url()).pathname.startsWith("/photos/"))
      seen.push(new URL(request.url()).pathname);
  });
  return seen;
}

const switchButton = (page: Page) => page.getByRole("contentinfo").getByRole("button", { name: /^Data saver/ });

async function newPage(browser: Browser, options: Parameters<Browser["newContext"]>[0] = {}) {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, ...options });
  return context.newPage();
}

for (const javaScriptEnabled of [false, true]) {
  test(`the footer's switch ${javaScriptEnabled ? "with" : "without"} JavaScript is remembered across pages and returns to the page`, async ({
    browser,
    request,
  }) => {
    const { path } = await listingWithPhotos(request);
    const page = await newPage(browser, { javaScriptEnabled });
    await page.goto(`/si${path}`);
    await expect(page.getByText("ඡායාරූපය පෙන්වන්න")).toHaveCount(0);
    await page.getByRole("button", { name: "දත්ත ඉතිරිකරණය: අක්‍රියයි" }).click();
    await expect(page).toHaveURL(new RegExp(`/si${path}$`));
    await expect(page.getByRole("button", { name: "දත්ත ඉතිරිකරණය: ක්‍රියාත්මකයි" })).toBeVisible();
    await expect(page.getByText("ඡායාරූපය පෙන්වන්න").first()).toBeVisible();

    // Another page, in another language: still on.
    await page.goto("/browse");
    await expect(switchButton(page)).toHaveText("Data saver: on");
    // Other specs post places without photos to the same server: any card with a photo will do.
    await expect(page.getByRole("article").getByText("Show photo").first()).toBeVisible();

    await switchButton(page).click();
    await expect(page).toHaveURL(/\/browse$/);
    await expect(switchButton(page)).toHaveText("Data saver: off");
    await expect(page.getByText("Show photo")).toHaveCount(0);
    await page.context().close();
  });
}

test("with JavaScript, the switch returns to the page reached by a client-side navigation", async ({ browser }) => {
  const page = await newPage(browser);
  await page.goto("/about");
  await page.getByRole("contentinfo").getByRole("link", { name: "Browse Listings" }).click();
  await expect(page).toHaveURL(/\/browse$/);
  await expect(page.getByRole("article").first()).toBeVisible();
  await switchButton(page).click();
  await expect(page).toHaveURL(/\/browse$/);
  await expect(switchButton(page)).toHaveText("Data saver: on");
  await page.context().close();
});

test("the browser's Save-Data header turns data saver on; the switch can still turn it off", async ({
  browser,
  request,
}) => {
  const { path } = await listingWithPhotos(request);
  const page = await newPage(browser, { extraHTTPHeaders: { "Save-Data": "on" } });
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(r.url());
  });
  await page.goto(`/ta${path}`);
  await expect(page.getByText("புகைப்படத்தைக் காட்டுக").first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(scripts, "a read-only page with data saver loads no scripts").toEqual([]);
  // Nor installs the service worker, whose install would fetch every precached file (ADR 088).
  expect(await page.content()).not.toContain("serviceWorker.register");

  await page.getByRole("button", { name: "தரவுச் சேமிப்பு: இயக்கத்தில்" }).click();
  await expect(page).toHaveURL(new RegExp(`/ta${path}$`));
  await expect(page.getByRole("button", { name: "தரவுச் சேமிப்பு: நிறுத்தத்தில்" })).toBeVisible();
  await expect(page.getByText("புகைப்படத்தைக் காட்டுக")).toHaveCount(0);
  await page.context().close();
});

test("with data saver, photos are fetched only when tapped, at their smallest size", async ({ browser, request }) => {
  const { path, smallest } = await listingWithPhotos(request);
  // A fresh browser for each page: a photo already in its cache is shown at once, lazy or not.
  const onBrowse = await newPage(browser, { extraHTTPHeaders: { "Save-Data": "on" } });
  const browsePhotos = photoRequests(onBrowse);
  await onBrowse.goto("/browse");
  await onBrowse.waitForLoadState("networkidle");
  expect(browsePhotos, "browse asks for no photo before a tap").toEqual([]);
  // The first card with a photo: other tests post listings without photos, and the newest comes first.
  // Pinned by position, as the tap replaces the card's "Show photo" with the photo.
  const articles = onBrowse.getByRole("article");
  const withPhoto = await articles.evaluateAll((cards) =>
    cards.findIndex((c) => c.textContent?.includes("Show photo")),
  );
  expect(withPhoto, "a card on browse with a photo").toBeGreaterThanOrEqual(0);
  const card = articles.nth(withPhoto);
  await card.getByText("Show photo").click();
  await expect(card.getByRole("img")).toBeVisible();
  await expect.poll(() => browsePhotos.length).toBe(1);
  expect(browsePhotos[0]).toMatch(/-400\.webp$/);
  // The tap showed the photo; it did not open the listing under the card's link.
  await expect(onBrowse).toHaveURL(/\/browse$/);
  await onBrowse.context().close();

  const onListing = await newPage(browser, { extraHTTPHeaders: { "Save-Data": "on" } });
  const listingPhotos = photoRequests(onListing);
  await onListing.goto(path);
  await onListing.waitForLoadState("networkidle");
  expect(listingPhotos, "the listing page asks for no photo before a tap").toEqual([]);
  await onListing.getByText("Show photo").click();
  await expect(onListing.locator("details img")).toBeVisible();
  await expect.poll(() => listingPhotos).toEqual([smallest]);
  await onListing.context().close();
});
