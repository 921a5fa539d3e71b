import { randomBytes } from "node:crypto";
import { devices, expect, type Page, request as playwrightRequest, test } from "@playwright/test";

// ADR 017: made-up visitor cookies used to add a view per request.
// Only a visitor id the site signed counts; a real browser, with or without
// JavaScript, still counts one view per session.

const UA = devices["Desktop Chrome"].userAgent;
const hex = () => randomBytes(16).toString("hex");
// Views are written once a second and a cached page may be a few seconds old (ADR 014).
const settled = { intervals: [500, 1000], timeout: 12_000 };

/** A listing on the second page of browse (newest first): one other specs do not look at. */
async function quietListing(baseURL: string | undefined, page: number): Promise<{ id: string; slug: string }> {
  const api = await playwrightRequest.newContext({ baseURL });
  const { ads } = (await (await api.get(`/api/listings?limit=10&page=${page}`)).json()) as {
    ads: { id: string; slug: string }[];
  };
  await api.dispose();
  return ads[ads.length - 1];
}

async function viewsOf(baseURL: string | undefined, id: string): Promise<number> {
  const api = await playwrightRequest.newContext({ baseURL });
  const { ad } = (await (await api.get(`/api/listings/${id}`)).json()) as { ad: { views: number } };
  await api.dispose();
  return ad.views;
}

async function shownViews(page: Page): Promise<number> {
  await page.reload();
  return Number(/([\d,]+) views?/.exec(await page.getByTestId("view-count").innerText())![1].replace(/,/g, ""));
}

test("random unsigned visitor cookies and tampered signatures add no views", async ({ baseURL }) => {
  test.setTimeout(60_000);
  const listing = await quietListing(baseURL, 2);
  const before = await viewsOf(baseURL, listing.id);

  // A script: a new made-up session and visitor cookie on every request, page and JSON endpoint alike.
  const script = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { "User-Agent": UA } });
  for (let i = 0; i < 10; i++) {
    const cookie = `bodima_vs=${hex()}; bodima_vid=${hex()}`;
    expect((await script.get(`/listing/${listing.slug}`, { headers: { Cookie: cookie } })).status()).toBe(200);
    const json = await script.post("/updateViewCount", { data: { adId: listing.id }, headers: { Cookie: cookie } });
    expect(await json.json()).toMatchObject({ counted: false });
  }
  // A signed id the site gave out, with its signature changed.
  const given = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { "User-Agent": UA } });
  await given.get(`/listing/${(await quietListing(baseURL, 3)).slug}`);
  const signed = (await given.storageState()).cookies.find((c) => c.name === "bodima_vid")?.value;
  expect(signed).toMatch(/^[a-f0-9]{32}\.[A-Za-z0-9_-]{43}$/);
  const tampered = `${signed!.slice(0, 40)}${signed![40] === "A" ? "B" : "A"}${signed!.slice(41)}`;
  for (let i = 0; i < 5; i++) {
    const json = await script.post("/updateViewCount", {
      data: { adId: listing.id },
      headers: { Cookie: `bodima_vs=${hex()}; bodima_vid=${tampered}` },
    });
    expect(await json.json()).toMatchObject({ counted: false });
  }
  await given.dispose();
  await script.dispose();

  // Long enough for any buffered view to be written.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  expect(await viewsOf(baseURL, listing.id)).toBe(before);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a real browser counts one view per session: reloads do not count, a new browser does", async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const listing = await quietListing(baseURL, 4);
    const firstContext = await browser.newContext({ javaScriptEnabled: false, userAgent: UA });
    const page = await firstContext.newPage();
    await page.goto(`/listing/${listing.slug}`);
    const before = Number(
      /([\d,]+) views?/.exec(await page.getByTestId("view-count").innerText())![1].replace(/,/g, ""),
    );
    await expect.poll(() => shownViews(page), settled).toBe(before + 1);
    await page.waitForTimeout(4_000);
    expect(await shownViews(page)).toBe(before + 1);

    const secondContext = await browser.newContext({ javaScriptEnabled: false, userAgent: UA });
    await (await secondContext.newPage()).goto(`/listing/${listing.slug}`);
    await expect.poll(() => shownViews(page), settled).toBe(before + 2);
    await firstContext.close();
    await secondContext.close();
  });
});
