import { gzipSync } from "node:zlib";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { bootHints } from "./boot-hints";

// Budget from the foundation issue: JavaScript on first load of the home page,
// /browse and /listing/{slug} is at most 120 KB gzipped. Measured the way a browser loads
// it: every script and modulepreload the server-rendered HTML names, and the
// modules and message files its boot script hints after the first paint (ADR 035).
// The page's messages are JSON files (ADR 030): reported on
// their own line, not counted against the JavaScript budget (they are data the
// browser parses as JSON, and their size depends on the language).
const BUDGET_BYTES = 120 * 1024;

async function gzipBytes(request: APIRequestContext, urls: Iterable<string>) {
  let total = 0;
  for (const url of urls) {
    const response = await request.get(url);
    expect(response.status(), url).toBe(200);
    total += gzipSync(await response.body(), { level: 9 }).length;
  }
  return total;
}

async function firstLoadJsGzipBytes(request: APIRequestContext, path: string) {
  const response = await request.get(path);
  expect(response.status()).toBe(200);
  const html = await response.text();
  const urls = new Set<string>();
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/<script[^>]+src="([^"]+)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/import\("([^"]+\.js)"\)/g)) urls.add(m[1]);
  const messages = new Set<string>();
  for (const m of html.matchAll(/<link(?=[^>]+rel="preload")(?=[^>]+as="fetch")[^>]+href="([^"]+\.json)"/g))
    messages.add(m[1]);
  const boot = bootHints(html);
  expect(boot, "the boot script that loads the scripts after the first paint").toBeTruthy();
  for (const url of boot!.modules) urls.add(url);
  for (const url of boot!.messages) messages.add(url);
  const total = await gzipBytes(request, urls);
  const messageBytes = await gzipBytes(request, messages);
  console.log(`${path} messages: ${(messageBytes / 1024).toFixed(1)} KB gzipped in ${messages.size} files`);
  return { total, files: urls.size };
}

// The budget holds in every language (docs/i18n.md): a language adds messages, never JavaScript (ADR 030).
for (const prefix of ["", "/si", "/ta"]) {
  // The home page is the first page most people open: it pays for its search form and figures only.
  test(`first-load JavaScript of ${prefix}/ stays within 120 KB gzipped`, async ({ request }) => {
    const { total, files } = await firstLoadJsGzipBytes(request, `${prefix}/`);
    console.log(`${prefix}/ first-load JS: ${(total / 1024).toFixed(1)} KB gzipped in ${files} files`);
    expect(files).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  test(`first-load JavaScript of ${prefix}/browse stays within 120 KB gzipped`, async ({ request }) => {
    const { total, files } = await firstLoadJsGzipBytes(request, `${prefix}/browse`);
    console.log(`${prefix}/browse first-load JS: ${(total / 1024).toFixed(1)} KB gzipped in ${files} files`);
    expect(files).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  test(`first-load JavaScript of a listing page in ${prefix || "English"} stays within 120 KB gzipped`, async ({
    request,
    page,
  }) => {
    await page.goto(`${prefix}/browse`);
    const href = await page.locator(`a[href^="${prefix}/listing/"]`).first().getAttribute("href");
    expect(href).toBeTruthy();
    const { total, files } = await firstLoadJsGzipBytes(request, href!);
    console.log(`${href} first-load JS: ${(total / 1024).toFixed(1)} KB gzipped in ${files} files`);
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
  });
}
