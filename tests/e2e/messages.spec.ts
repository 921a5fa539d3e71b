import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { bootHints } from "./boot-hints";

// Messages are not in the browser's JavaScript (ADR 030): each area's compiled
// messages are a static JSON file per language, preloaded by the page and
// fetched before anything that uses them runs.

const clientAssets = path.resolve(process.env.BUILD_DIR ?? "build", "client", "assets");

/** Every plain English sentence of an area (no placeholders or tags), long enough to be distinctive. */
function englishSentences(area: string): string[] {
  const out: string[] = [];
  const walk = (node: unknown) => {
    if (typeof node === "string") {
      if (node.length >= 40 && !/[{}<>]/.test(node)) out.push(node);
    } else if (node && typeof node === "object") for (const value of Object.values(node)) walk(value);
  };
  walk(JSON.parse(fs.readFileSync(path.resolve("app/i18n/en", `${area}.json`), "utf8")));
  return out;
}

const areas = fs.readdirSync(path.resolve("app/i18n/en")).map((f) => f.replace(/\.json$/, ""));
/**
 * Message areas: `directory` is left out, because its English entries are the university directory's
 * own names (app/directory/universities.ts), which the browser holds as filter values anyway; only
 * its Sinhala and Tamil names are translations, and they are shown from the server (docs/i18n.md).
 */
const messageAreas = areas.filter((area) => area !== "directory");

/** Raw message keys left on the page ("report.form.name") mean a message was missing when it rendered. */
async function expectNoRawKeys(page: Page) {
  const text = await page.locator("body").innerText();
  expect(text.match(/\b(?:common|browse|listing|report|home|info)\.[a-zA-Z]+\.[\w.-]+/g) ?? []).toEqual([]);
}

const hydrated = (page: Page) => page.locator('button[aria-controls="site-menu"]').waitFor({ state: "attached" });

test("the browser's JavaScript carries no message text; the messages files do", () => {
  const assets = fs.readdirSync(clientAssets);
  const scripts = assets
    .filter((f) => f.endsWith(".js"))
    .map((f) => fs.readFileSync(path.join(clientAssets, f), "utf8"))
    .join("\n");
  const sentences = messageAreas.flatMap(englishSentences);
  expect(sentences.length).toBeGreaterThan(50);
  expect(sentences.filter((s) => scripts.includes(s))).toEqual([]);
  expect(scripts).not.toContain("The place does not exist, is not for rent");
  // Each area the browser uses has a file per language holding its sentences (server-only areas have none).
  const shipped = areas.filter((area) => assets.some((f) => new RegExp(`^${area}-[\\w-]{8}\\.en\\.json$`).test(f)));
  expect(shipped).toEqual(expect.arrayContaining(["common", "browse", "listing", "report"]));
  for (const area of shipped) {
    const files = assets.filter((f) => new RegExp(`^${area}-[\\w-]{8}\\.(en|si|ta)\\.json$`).test(f));
    expect(files.map((f) => f.split(".")[1]).sort(), area).toEqual(["en", "si", "ta"]);
    const english = fs.readFileSync(path.join(clientAssets, files.find((f) => f.endsWith(".en.json"))!), "utf8");
    expect(
      englishSentences(area).filter((s) => !english.includes(JSON.stringify(s).slice(1, -1))),
      area,
    ).toEqual([]);
  }
});

test("a page names its messages files (hinted after the first paint), served compressed and immutable", async ({
  request,
}) => {
  const html = await (await request.get("/browse")).text();
  const files = bootHints(html)?.messages ?? [];
  expect(files.some((f) => /^\/assets\/common-[\w-]+\.en\.json$/.test(f))).toBe(true);
  expect(files.some((f) => /^\/assets\/browse-[\w-]+\.en\.json$/.test(f))).toBe(true);
  const common = files.find((f) => f.includes("/common-"))!;
  const response = await request.get(common, { headers: { "Accept-Encoding": "br" } });
  expect(response.status()).toBe(200);
  expect(response.headers()["content-encoding"]).toBe("br");
  expect(response.headers()["content-type"]).toMatch(/^application\/json/);
  expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
});

test("a listing page hydrates with its messages: the report dialog's texts are English, each file fetched once", async ({
  page,
}) => {
  const fetched: string[] = [];
  // Each file once: the preload's response serves the script's fetch.
  page.on("request", (r) => {
    if (r.url().endsWith(".json")) fetched.push(new URL(r.url()).pathname);
  });
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("console", (m) => {
    // Playwright's own word that it blocked the service worker (tests/playwright-base.ts), not the page's.
    if (/blocked by Playwright/.test(m.text())) return;
    if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
  });

  await page.goto("/browse");
  // Browse fetches its scripts and messages after its first paint and load (ADR 035): let it
  // finish, so only the listing page's requests are counted.
  await hydrated(page);
  const href = await page.locator('a[href^="/listing/"]').first().getAttribute("href");
  fetched.length = 0;
  await page.goto(href!);
  await hydrated(page);
  await page.getByRole("link", { name: "Report This Listing" }).click();
  const dialog = page.getByRole("dialog", { name: "Report This Listing" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(/^Reason/).selectOption("Fake Listing");
  await expect(
    dialog.getByText("The place does not exist, is not for rent, or the ad copies someone else's photos."),
  ).toBeVisible();
  await expectNoRawKeys(page);
  expect(fetched.filter((f, i) => fetched.indexOf(f) !== i)).toEqual([]);
  expect(problems).toEqual([]);
});

test("client-side navigation to a page of another area waits for its messages", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  const documents: string[] = [];
  page.on("request", (r) => {
    if (r.isNavigationRequest()) documents.push(r.url());
  });
  const loaded = page.waitForRequest((r) => /\/assets\/browse-[\w-]+\.en\.json$/.test(r.url()));
  await page.locator('footer a[href="/browse"]').click();
  await loaded;
  await expect(page).toHaveURL(/\/browse$/);
  expect(documents).toEqual([]);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectNoRawKeys(page);
});
