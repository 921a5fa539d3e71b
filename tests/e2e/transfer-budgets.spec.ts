import { type Browser, expect, test } from "@playwright/test";

// Transfer budgets (ADR 090; docs/performance.md): the bytes a phone actually downloads for a page's
// first view, measured in Chromium from a fresh browser with its cache disabled (the encoded length
// of every response: headers and compressed bodies, as they came over the network) on a 360 px
// screen at a mid-range Android phone's pixel ratio of 2, until the network is idle (the scripts
// a read-only page fetches after its first paint, ADR 035, included). The demo data's listings.

const KB = 1024;
const PHONE = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

type Transfer = { total: number; byType: Record<string, number>; requests: number };

async function firstView(browser: Browser, path: string, headers: Record<string, string> = {}): Promise<Transfer> {
  const context = await browser.newContext({ ...PHONE, extraHTTPHeaders: headers });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const types = new Map<string, string>();
  const transfer: Transfer = { total: 0, byType: {}, requests: 0 };
  cdp.on("Network.requestWillBeSent", (event) => types.set(event.requestId, event.type ?? "Other"));
  cdp.on("Network.loadingFinished", (event) => {
    const type = types.get(event.requestId) ?? "Other";
    transfer.total += event.encodedDataLength;
    transfer.byType[type] = (transfer.byType[type] ?? 0) + event.encodedDataLength;
    transfer.requests += 1;
  });
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  await page.waitForLoadState("networkidle");
  await context.close();
  return transfer;
}

function report(label: string, { total, byType, requests }: Transfer) {
  const parts = Object.entries(byType)
    .sort(([, a], [, b]) => b - a)
    .map(([type, bytes]) => `${type} ${(bytes / KB).toFixed(1)}`);
  console.log(`${label}: ${(total / KB).toFixed(1)} KB in ${requests} responses (${parts.join(", ")})`);
}

/**
 * The oldest public listing with a photo: one of the demo data's (other specs post listings of their
 * own while this one runs, newest first), so every run measures the same kind of page.
 */
async function aListingWithPhotos(browser: Browser, baseURL: string | undefined): Promise<string> {
  const context = await browser.newContext();
  const list = async (page: number) =>
    (await (await context.request.get(`${baseURL}/api/listings?limit=50&page=${page}`)).json()) as {
      ads: { slug: string; photos: unknown[] }[];
      pagination: { totalPages: number };
    };
  const { ads } = await list((await list(1)).pagination.totalPages);
  await context.close();
  const ad = ads.findLast((a) => a.photos.length > 0);
  expect(ad, "a demo listing with a photo").toBeTruthy();
  return `/listing/${ad!.slug}`;
}

for (const prefix of ["", "/si", "/ta"]) {
  const language = prefix || "English";

  test(`a listing page's first view in ${language} transfers at most 250 KB`, async ({ browser, baseURL }) => {
    const path = `${prefix}${await aListingWithPhotos(browser, baseURL)}`;
    const transfer = await firstView(browser, path);
    report(`${path} first view`, transfer);
    expect(transfer.byType.Image ?? 0, "the first photo is part of the first view").toBeGreaterThan(0);
    expect(transfer.total).toBeLessThanOrEqual(250 * KB);
  });

  test(`a listing page's first view in ${language} with data saver transfers at most 60 KB`, async ({
    browser,
    baseURL,
  }) => {
    const path = `${prefix}${await aListingWithPhotos(browser, baseURL)}`;
    const transfer = await firstView(browser, path, { "Save-Data": "on" });
    report(`${path} first view with data saver`, transfer);
    expect(transfer.total).toBeLessThanOrEqual(60 * KB);
  });

  test(`browse's first view in ${language} transfers at most 350 KB`, async ({ browser }) => {
    const transfer = await firstView(browser, `${prefix}/browse`);
    report(`${prefix}/browse first view`, transfer);
    expect(transfer.total).toBeLessThanOrEqual(350 * KB);
  });
}
