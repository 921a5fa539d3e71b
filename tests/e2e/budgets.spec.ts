import { gzipSync } from "node:zlib";
import { expect, test, type APIRequestContext } from "@playwright/test";

// Budget from the foundation issue: JavaScript on first load of /browse and
// /listing/{slug} is at most 120 KB gzipped. Measured the way a browser loads
// it: every script and modulepreload the server-rendered HTML names.
const BUDGET_BYTES = 120 * 1024;

async function firstLoadJsGzipBytes(request: APIRequestContext, path: string) {
  const response = await request.get(path);
  expect(response.status()).toBe(200);
  const html = await response.text();
  const urls = new Set<string>();
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/<script[^>]+src="([^"]+)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/import\("([^"]+\.js)"\)/g)) urls.add(m[1]);
  let total = 0;
  for (const url of urls) {
    const body = await (await request.get(url)).body();
    total += gzipSync(body, { level: 9 }).length;
  }
  return { total, files: urls.size };
}

test("first-load JavaScript of /browse stays within 120 KB gzipped", async ({ request }) => {
  const { total, files } = await firstLoadJsGzipBytes(request, "/browse");
  console.log(`/browse first-load JS: ${(total / 1024).toFixed(1)} KB gzipped in ${files} files`);
  expect(files).toBeGreaterThan(0);
  expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
});

test("first-load JavaScript of a listing page stays within 120 KB gzipped", async ({ request, page }) => {
  await page.goto("/browse");
  const href = await page.locator('a[href^="/listing/"]').first().getAttribute("href");
  expect(href).toBeTruthy();
  const { total, files } = await firstLoadJsGzipBytes(request, href!);
  console.log(`${href} first-load JS: ${(total / 1024).toFixed(1)} KB gzipped in ${files} files`);
  expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
});
