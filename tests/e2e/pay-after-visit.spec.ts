import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";

// ADR 077: 'Never pay key money or an advance before you have seen the place
// and met the owner' stands beside every way to contact an owner (Call Now,
// the phone number, the phone's call bar, a shortlist's call buttons), in the
// page's language, not twice on the page (the safety notice gives other tips),
// and nothing gets wider than a 360 px phone.

const LANGUAGES = ["en", "si", "ta"] as const;
type Language = (typeof LANGUAGES)[number];

function message(language: Language, file: string, key: string): string {
  const catalogue = JSON.parse(fs.readFileSync(path.resolve("app/i18n", language, `${file}.json`), "utf8"));
  return key.split(".").reduce((node, part) => node[part], catalogue) as string;
}

async function aListingSlug(request: APIRequestContext): Promise<string> {
  const body = (await (await request.get("/api/listings?limit=1")).json()) as { ads: { slug: string }[] };
  return body.ads[0].slug;
}

/** The visible elements that say `text`, exactly. */
async function visibleSaying(page: Page, text: string): Promise<number> {
  return page
    .getByText(text, { exact: true })
    .evaluateAll((els) => els.filter((el) => (el as HTMLElement).offsetParent !== null).length);
}

/** How far apart two boxes are vertically (0 when they overlap). */
async function verticalGap(a: Locator, b: Locator): Promise<number> {
  const [boxA, boxB] = [await a.boundingBox(), await b.boundingBox()];
  if (!boxA || !boxB) throw new Error("not on screen");
  const [upper, lower] = boxA.y <= boxB.y ? [boxA, boxB] : [boxB, boxA];
  return Math.max(0, lower.y - (upper.y + upper.height));
}

const documentWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

for (const language of LANGUAGES) {
  const prefix = language === "en" ? "" : `/${language}`;
  const line = message(language, "common", "payAfterVisit");
  const callNow = message(language, "listing", "callNow");

  test.describe(`${language}: the listing page`, () => {
    test("on a wide screen the line stands by Call Now, right above the phone number, once", async ({
      page,
      request,
    }) => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${prefix}/listing/${await aListingSlug(request)}`);
      await expect(page.locator("html")).toHaveAttribute("lang", language);
      const aside = page.locator("aside");
      const said = aside.getByText(line, { exact: true });
      await expect(said).toBeVisible();
      const call = aside.getByRole("link", { name: callNow });
      await expect(call).toBeVisible();
      // Only the Save button may stand between them.
      expect(await verticalGap(call, said)).toBeLessThan(80);
      // Right above the contact details, whose phone number is a call link too.
      const contact = aside.locator('section[aria-labelledby="contact-heading"]');
      await expect(contact.locator('a[href^="tel:"]')).toBeVisible();
      expect(await verticalGap(said, contact)).toBeLessThan(24);
      // Not said twice: the safety notice further down gives other tips.
      expect(await visibleSaying(page, line)).toBe(1);
      await expect(
        page.getByRole("region", { name: message(language, "listing", "safety.heading") }),
      ).not.toContainText(line);
    });

    test("on a 360 px phone it rides in the call bar with Call Now, and nothing is wider than the screen", async ({
      page,
      request,
    }) => {
      await page.setViewportSize({ width: 360, height: 740 });
      await page.goto(`${prefix}/listing/${await aListingSlug(request)}`);
      const bar = page.getByTestId("mobile-call-bar");
      await expect(bar.getByRole("link", { name: callNow })).toBeInViewport();
      await expect(bar.getByText(line, { exact: true })).toBeInViewport();
      // Beside the phone number in the side panel too, and the bar with it when the reader scrolls there.
      const phone = page.locator("aside").locator('a[href^="tel:"]').last();
      await phone.scrollIntoViewIfNeeded();
      await expect(phone).toBeInViewport();
      await expect(bar.getByText(line, { exact: true })).toBeInViewport();
      expect(await documentWidth(page)).toBe(360);
      const barBox = await bar.boundingBox();
      expect(barBox && barBox.x + barBox.width).toBeLessThanOrEqual(361);
    });
  });
}

test.describe("the shortlist", () => {
  // The Save button posts a form and lands on /shortlist.
  test.use({ javaScriptEnabled: false });

  test("says it beside the call buttons, side by side and on a phone", async ({ page, request }) => {
    const line = message("en", "common", "payAfterVisit");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/listing/${await aListingSlug(request)}`);
    await page
      .getByRole("button", { name: /^Save ?:/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/shortlist(\?|$)/);

    const table = page.getByTestId("shortlist-table");
    const call = table.getByRole("link", { name: "Call Now" }).first();
    await expect(call).toBeVisible();
    const said = table.getByText(line, { exact: true });
    await expect(said).toBeVisible();
    expect(await verticalGap(call, said)).toBeLessThan(40);

    await page.setViewportSize({ width: 360, height: 740 });
    const card = page.getByTestId("shortlist-cards").locator("article").first();
    await expect(card.getByRole("link", { name: "Call Now" })).toBeVisible();
    await expect(card.getByText(line, { exact: true })).toBeVisible();
    expect(await documentWidth(page)).toBe(360);
  });
});
