import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { PASSWORD, signedInOwner, uniqueWord } from "./owners";

// The site in Sinhala and Tamil (ADR 033): /si and /ta serve every
// page in the reader's language, links stay in it, and the switcher keeps the page.

const LANGUAGES = ["si", "ta"] as const;
type Language = (typeof LANGUAGES)[number];

function flatten(node: unknown, prefix: string, out: Map<string, string>) {
  if (typeof node === "string") out.set(prefix, node);
  else if (node && typeof node === "object")
    for (const [key, value] of Object.entries(node)) flatten(value, prefix ? `${prefix}.${key}` : key, out);
}

function catalogue(language: string): Map<string, string> {
  const out = new Map<string, string>();
  const dir = path.resolve("app/i18n", language);
  for (const file of fs.readdirSync(dir)) flatten(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")), file, out);
  return out;
}

/**
 * English interface text that a Sinhala or Tamil page must not show: every
 * English message without placeholders whose translation differs (brand names
 * and numbers are the same in every language), long enough not to be part of a
 * listing's own words.
 */
function englishOnly(language: Language): string[] {
  const english = catalogue("en");
  const translated = catalogue(language);
  return [...english]
    .filter(([key, value]) => translated.get(key) !== value && !/[{}<>]/.test(value) && value.split(" ").length >= 3)
    .map(([, value]) => value);
}

/** The page's own interface text: listings' titles, descriptions and places are their owners' words. */
async function interfaceText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const body = document.body.cloneNode(true) as HTMLElement;
    for (const owned of body.querySelectorAll("article, [data-owner-text], script, style")) owned.remove();
    return body.innerText;
  });
}

/** Opens `url` and expects it in `language`: <html lang>, and none of the English interface text. */
async function expectInLanguage(page: Page, url: string, language: Language, english: string[]) {
  expect((await page.goto(url))?.status(), url).toBe(200);
  await expect(page.locator("html"), url).toHaveAttribute("lang", language);
  const text = await interfaceText(page);
  expect(
    english.filter((sentence) => text.includes(sentence)),
    url,
  ).toEqual([]);
}

async function aListingSlug(request: APIRequestContext): Promise<string> {
  const body = (await (await request.get("/api/listings?limit=1")).json()) as { ads: { slug: string }[] };
  return body.ads[0].slug;
}

const PAGES = [
  "/",
  "/browse?propertyType=single&gender=female",
  // A university with faculties away from its main campus: the faculty choice and chips.
  "/browse?university=University%20of%20Kelaniya&faculty=Faculty%20of%20Medicine%20Ragama",
  "/about",
  "/contact",
  "/login",
  "/signup",
  "/privacy",
];

for (const language of LANGUAGES) {
  test.describe(`/${language}`, () => {
    test("every public page is in the language, with <html lang>, hreflang alternates and no English left", async ({
      page,
      request,
    }) => {
      const english = englishOnly(language);
      expect(english.length).toBeGreaterThan(100);
      const paths = [...PAGES, `/listing/${await aListingSlug(request)}`];
      for (const pagePath of paths) {
        const url = `/${language}${pagePath === "/" ? "" : pagePath}`;
        await expectInLanguage(page, url, language, english);
        const alternates = await page
          .locator('head link[rel="alternate"][hreflang]')
          .evaluateAll((links) => links.map((l) => l.getAttribute("hreflang")));
        if (!pagePath.startsWith("/login") && !pagePath.startsWith("/signup")) {
          expect(alternates.sort(), url).toEqual(["en", "si", "ta", "x-default"]);
          // The canonical URL is the page in this language.
          const canonical = await page.locator('head link[rel="canonical"]').getAttribute("href");
          expect(new URL(canonical!).pathname, url).toMatch(new RegExp(`^/${language}(/|$)`));
        }
      }
    });

    test("an owner's pages are in the language too: dashboard, settings, the listing form", async ({ page }) => {
      const english = englishOnly(language);
      await signedInOwner(page, { name: "Language Owner" });
      // The account prefers English: the language is chosen with the switcher (ADR 036).
      await page.goto(`/language/${language}?next=%2Fdashboard`);
      for (const pagePath of ["/dashboard", "/dashboard/settings", "/dashboard/listings/new"]) {
        await expectInLanguage(page, `/${language}${pagePath}`, language, english);
      }
    });

    test("a moderator's pages are in the language too: the report queue, the held-for-review queue and the audit log", async ({
      page,
    }) => {
      const english = englishOnly(language);
      await signedInOwner(page, { name: "Language Moderator", role: "moderator" });
      await page.goto(`/language/${language}?next=%2Fadmin`);
      for (const pagePath of ["/admin", "/admin/held", "/admin/audit"]) {
        await expectInLanguage(page, `/${language}${pagePath}`, language, english);
      }
    });

    test("links, forms and redirects stay in the language", async ({ page, request }) => {
      const slug = await aListingSlug(request);
      for (const pagePath of ["", "/browse", "/about", `/listing/${slug}`]) {
        await page.goto(`/${language}${pagePath}`);
        const targets = await page
          .locator("a[href^='/'], form[action^='/']")
          .evaluateAll((els) =>
            els
              .filter((el) => !el.hasAttribute("hreflang"))
              .map((el) => el.getAttribute("href") ?? el.getAttribute("action") ?? ""),
          );
        expect(
          targets.filter((target) => /^\/(si|ta)\/(si|ta)(\/|$)/.test(target)),
          `${pagePath}: the language twice`,
        ).toEqual([]);
        const outside = targets.filter(
          (target) =>
            !target.startsWith(`/${language}/`) &&
            target !== `/${language}` &&
            !/^\/(photos|assets|api|sitemap\.xml|robots\.txt)(\/|$|\?)/.test(target),
        );
        expect(outside, pagePath || "/").toEqual([]);
      }
      // The dashboard sends a visitor to log in, in the same language, and back there after.
      await page.goto(`/${language}/dashboard`);
      await expect(page).toHaveURL(new RegExp(`/${language}/login\\?redirectTo=%2Fdashboard$`));
      // An old slug moves to the listing's address in the same language.
      const adNumber = slug.split("-").at(-1);
      await page.goto(`/${language}/listing/listing-${adNumber}`);
      await expect(page).toHaveURL(new RegExp(`/${language}/listing/${slug}$`));
    });
  });
}

test("the switcher opens the same page, with its filters, in each language", async ({ page }) => {
  const consoleErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  await page.goto("/browse?propertyType=single");
  // The footer's switcher: there with or without JavaScript, on every screen size.
  const switcher = page.getByRole("group", { name: "Language" });
  await switcher.getByRole("link", { name: "සිංහල" }).click();
  await expect(page).toHaveURL(/\/si\/browse\?propertyType=single$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "si");
  await page.locator('button[aria-controls="site-menu"]').waitFor({ state: "attached" });

  // A client-side navigation inside Sinhala stays Sinhala.
  const sinhalaSwitcher = page.getByRole("group", { name: "භාෂාව" });
  await expect(sinhalaSwitcher.locator('[aria-current="page"]')).toHaveText("සිංහල");
  const aboutLink = page.locator("footer a[href='/si/about']");
  await aboutLink.click();
  await expect(page).toHaveURL(/\/si\/about$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "si");
  await expect(page.locator("h1")).toHaveText(/Bodima ගැන/);

  await page.getByRole("group", { name: "භාෂාව" }).getByRole("link", { name: "தமிழ்" }).click();
  await expect(page).toHaveURL(/\/ta\/about$/);
  await page.getByRole("group", { name: "மொழி" }).getByRole("link", { name: "English" }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  expect(consoleErrors).toEqual([]);
});

test.describe("the chosen language is remembered (ADR 036)", () => {
  const hydrated = (page: Page) => page.locator('button[aria-controls="site-menu"]').waitFor({ state: "attached" });

  test("the dashboard opens in it; public pages keep the language their URL names", async ({ page, context }) => {
    await signedInOwner(page);
    await page.goto("/about");
    await page.getByRole("group", { name: "Language" }).getByRole("link", { name: "தமிழ்" }).click();
    await expect(page).toHaveURL(/\/ta\/about$/);
    const cookie = (await context.cookies()).find((c) => c.name === "bodima_lang");
    expect(cookie).toMatchObject({ value: "ta", httpOnly: true, sameSite: "Lax", path: "/" });

    // An English link to the owner area (a bookmark, an email) opens it in Tamil.
    await page.goto("/dashboard/settings");
    await expect(page).toHaveURL(/\/ta\/dashboard\/settings$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "ta");

    // The account's emails are still English: the dashboard offers Tamil ones, through a post.
    await page.goto("/ta/dashboard");
    await expect(page.getByText(/உங்கள் மின்னஞ்சல்கள் English மொழியில் வருகின்றன/)).toBeVisible();
    const accept = page.getByRole("button", { name: "ஆம், மின்னஞ்சல்கள் தமிழ் மொழியில்" });
    await accept.click();
    await expect(page).toHaveURL(/\/ta\/dashboard\/settings\?done=emailLanguage$/);
    await expect(page.getByText("உங்கள் மின்னஞ்சல்கள் தமிழ் மொழியில் அனுப்பப்படும்.")).toBeVisible();
    await expect(page.locator("#settings-locale")).toHaveValue("ta");
    await page.goto("/ta/dashboard");
    await expect(page.locator("h1")).toBeVisible();
    await expect(accept).toHaveCount(0);
    // Attacks on that post: another site's form, a language that is not ours. Nothing changes.
    const origin = new URL(page.url()).origin;
    const post = (locale: string, from: string) =>
      page.request.post("/ta/dashboard/settings", {
        form: { intent: "emailLanguage", locale },
        headers: { Origin: from },
        maxRedirects: 0,
      });
    expect((await post("si", "https://evil.example")).status()).toBe(403);
    expect((await post("fr", origin)).status()).toBe(400);
    await page.goto("/ta/dashboard/settings");
    await expect(page.locator("#settings-locale")).toHaveValue("ta");

    // A public page is the language its URL names, for everyone (and for the page cache).
    await page.goto("/browse");
    await expect(page).toHaveURL(/\/browse$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");

    // From an English page, the header's link to the dashboard opens the Tamil one (a whole page load).
    await hydrated(page);
    await page.getByRole("banner").getByRole("link", { name: "List Property" }).click();
    await expect(page).toHaveURL(/\/ta\/dashboard$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "ta");

    // Choosing English again: the dashboard is English.
    await page.getByRole("group", { name: "மொழி" }).getByRole("link", { name: "English" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  });

  test("an owner who signed up in Tamil gets the Tamil dashboard from English links, until choosing another", async ({
    page,
    context,
  }) => {
    await page.goto("/ta/signup");
    await page.locator("input[name='name']").fill("Tamil Owner");
    await page.locator("input[name='email']").fill(`tamil-${uniqueWord()}@example.lk`);
    await page.locator("input[name='phone']").fill("0771234567");
    await page.locator("input[name='password']").fill(PASSWORD);
    await page.locator("input[name='confirmPassword']").fill(PASSWORD);
    await page.locator("input[type='checkbox']").check();
    await page.locator("main form button[type='submit']").click();
    await expect(page).toHaveURL(/\/ta\/dashboard$/, { timeout: 10_000 });
    // Nothing chosen in this browser: only the account's language speaks.
    expect((await context.cookies()).find((c) => c.name === "bodima_lang")).toBeUndefined();

    // An English link (an email, a bookmark) opens the Tamil page.
    await page.goto("/dashboard/settings");
    await expect(page).toHaveURL(/\/ta\/dashboard\/settings$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "ta");

    // The English home page's header link, a client-side navigation, opens the Tamil dashboard.
    await page.goto("/");
    await hydrated(page);
    await page.getByRole("banner").getByRole("link", { name: "List Property" }).click();
    await expect(page).toHaveURL(/\/ta\/dashboard$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "ta");
    await expect(page.locator("h1")).toContainText("Tamil Owner");

    // Choosing English in this browser wins over the account's language.
    await page.getByRole("group", { name: "மொழி" }).getByRole("link", { name: "English" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await page.goto("/ta/dashboard/settings");
    await expect(page).toHaveURL(/\/dashboard\/settings$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  });

  test("the switcher's redirect only ever leads to our own pages, and a cookie changes no public page", async ({
    request,
  }) => {
    // The switcher answers with an absolute URL on the request's own origin: shown here as a path.
    const location = async (path: string, headers: Record<string, string> = {}) => {
      const response = await request.get(path, { maxRedirects: 0, headers });
      const origin = new URL(response.url()).origin;
      const target = response.headers().location;
      return {
        status: response.status(),
        location: target?.startsWith(`${origin}/`) ? target.slice(origin.length) : target,
        cookie: response.headers()["set-cookie"],
      };
    };
    expect(await location("/language/si?next=%2Fbrowse%3Funiversity%3DUniversity%20of%20Moratuwa")).toMatchObject({
      status: 303,
      location: "/si/browse?university=University%20of%20Moratuwa",
      cookie: expect.stringMatching(/^bodima_lang=si; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax/),
    });
    // Attacks: another site, in each spelling a browser would follow; the result is the home page.
    for (const next of [
      "//evil.example",
      "https://evil.example/x",
      "/%5Cevil.example",
      "/\tevil.example",
      "javascript:alert(1)",
    ])
      expect((await location(`/language/ta?next=${encodeURIComponent(next)}`)).location, next).toBe("/ta");
    // A path already in a language, or the link followed from a Sinhala page: one prefix, the chosen one.
    expect((await location("/language/ta?next=%2Fsi%2Fabout")).location).toBe("/ta/about");
    expect((await location("/si/language/ta?next=%2Fabout")).location).toBe("/ta/about");
    expect((await location("/language/en?next=%2Fabout")).location).toBe("/about");
    // Not one of our languages: nothing remembered.
    const unknown = await location("/language/fr?next=%2Fabout");
    expect(unknown.status).toBe(404);
    expect(unknown.cookie).toBeUndefined();

    // A remembered language never changes a public page, which stays cacheable.
    await request.get("/about");
    const about = await request.get("/about", { headers: { Cookie: "bodima_lang=si" } });
    expect(about.headers()["x-page-cache"]).toBe("HIT");
    expect(await about.text()).toContain('<html lang="en"');
    // A made-up value is ignored.
    expect((await location("/dashboard", { Cookie: "bodima_lang=xx" })).location).toMatch(/^\/login\?redirectTo=/);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the switcher remembers the choice: a visitor is sent to log in in that language", async ({ page }) => {
    await page.goto("/browse?propertyType=single");
    await page.getByRole("group", { name: "Language" }).getByRole("link", { name: "සිංහල" }).click();
    await expect(page).toHaveURL(/\/si\/browse\?propertyType=single$/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/si\/login\?redirectTo=%2Fdashboard$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "si");
  });

  test("the browse filters send a Sinhala reader to Sinhala results", async ({ page }) => {
    await page.goto("/si/browse");
    await page.locator("form[method='get'] select[name='propertyType']").first().selectOption("single");
    await page.locator("form[method='get'] button[type='submit']").first().click();
    await expect(page).toHaveURL(/\/si\/browse\?.*propertyType=single/);
    await expect(page.locator("html")).toHaveAttribute("lang", "si");
  });
});

test.describe("on a 360 px phone", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  /**
   * What sticks out of the screen: an element's box, or text running out of its box (a long Tamil
   * word in a grid column widened the document to 400 px while every box stayed inside).
   */
  const overflow = (page: Page) =>
    page.evaluate(() => {
      const visible = (el: Element) => !el.closest(".sr-only, [aria-hidden='true'], dialog:not([open])");
      const outside = (box: DOMRect) => box.width > 0 && (box.right > window.innerWidth + 1 || box.left < -1);
      const boxes = [...document.querySelectorAll("body *")]
        .filter((el) => outside(el.getBoundingClientRect()) && visible(el))
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 80));
      const texts: string[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const node = walker.currentNode;
        const range = document.createRange();
        range.selectNodeContents(node);
        if (node.parentElement && visible(node.parentElement) && outside(range.getBoundingClientRect()))
          texts.push((node.textContent ?? "").trim().slice(0, 60));
      }
      return { documentWidth: document.documentElement.scrollWidth, boxes, texts };
    });

  for (const language of ["en", ...LANGUAGES] as const) {
    test(`${language}: nothing is wider than the screen`, async ({ page, request }, testInfo) => {
      test.setTimeout(60_000);
      const prefix = language === "en" ? "" : `/${language}`;
      const publicPages = ["/", "/browse", "/about", "/contact", `/listing/${await aListingSlug(request)}`, "/signup"];
      const check = async (pagePath: string) => {
        const found = await overflow(page);
        await testInfo.attach(`${language}${pagePath.replaceAll("/", "-")}.png`, {
          body: await page.screenshot({ fullPage: true }),
          contentType: "image/png",
        });
        expect(found, `${prefix}${pagePath}`).toEqual({ documentWidth: 360, boxes: [], texts: [] });
      };
      for (const pagePath of publicPages) {
        await page.goto(`${prefix}${pagePath}`);
        await check(pagePath);
      }
      // The owner's pages, signed in, in this language (chosen with the switcher, ADR 036).
      await signedInOwner(page);
      for (const pagePath of ["/dashboard", "/dashboard/settings"]) {
        await page.goto(`/language/${language}?next=${encodeURIComponent(pagePath)}`);
        await expect(page).toHaveURL(new RegExp(`${prefix}${pagePath}$`));
        await check(pagePath);
      }
    });
  }
});

test.describe("a browser that asks for Sinhala first", () => {
  // Sets navigator.languages and the Accept-Language header.
  test.use({ locale: "si-LK" });
  const hydrated = (page: Page) => page.locator('button[aria-controls="site-menu"]').waitFor({ state: "attached" });

  test("is never redirected; an English page offers the Sinhala one, and a dismissal lasts", async ({ page }) => {
    const response = await page.goto("/about?utm_source=x");
    expect(response?.status()).toBe(200);
    expect(new URL(response!.url()).pathname).toBe("/about");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    const offer = page.getByRole("link", { name: "මෙම පිටුව සිංහලෙන් කියවන්න" });
    await expect(offer).toHaveAttribute("href", "/language/si?next=%2Fabout%3Futm_source%3Dx");
    await page.getByRole("button", { name: "Close the language suggestion" }).click();
    await expect(offer).toHaveCount(0);

    await page.reload();
    await hydrated(page);
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
    await expect(offer).toHaveCount(0);
  });

  test("following the offer opens the same page in Sinhala, which offers nothing more", async ({ page }) => {
    await page.goto("/browse?propertyType=annex");
    await page.getByRole("link", { name: "මෙම පිටුව සිංහලෙන් කියවන්න" }).click();
    await expect(page).toHaveURL(/\/si\/browse\?propertyType=annex$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "si");
    await hydrated(page);
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
    await expect(page.locator("aside[lang]")).toHaveCount(0);
  });
});
