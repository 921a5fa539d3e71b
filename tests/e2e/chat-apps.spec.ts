import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { toE164 } from "../../app/lib/phone";
import { insertListing } from "../../app/models/listing.server";
import { listingInput } from "../factories";
import { field, fillListing, newOwner, photo, signedInOwner, uniqueWord } from "./owners";
import { withProjectDatabase } from "./server-db";

// ADR 087: 'WhatsApp' and 'Viber' beside 'Call Now' on the listing page, as
// its owner ticked them: plain links written by the server, so they work
// without JavaScript and in the phone's call bar; none when nothing is ticked.

const LANGUAGES = ["en", "si", "ta"] as const;
type Language = (typeof LANGUAGES)[number];

function chat(language: Language): Record<string, string> {
  return JSON.parse(fs.readFileSync(path.resolve("app/i18n", language, "listing-server.json"), "utf8")).chat;
}

/** The exact links the page must carry, from the catalogue's words. */
function expectedHrefs(language: Language, listing: { slug: string; title: string; phone: string }) {
  const e164 = toE164(listing.phone)!;
  const prefix = language === "en" ? "" : `/${language}`;
  const url = `${test.info().project.use.baseURL}${prefix}/listing/${listing.slug}`;
  const text = chat(language)
    .message.replace("{title}", listing.title)
    .replace("{siteName}", "Bodima")
    .replace("{url}", url);
  return {
    whatsapp: `https://wa.me/${e164.slice(1)}?text=${encodeURIComponent(text)}`,
    viber: `viber://chat?number=${encodeURIComponent(e164)}`,
  };
}

async function aListing(ticked: boolean) {
  const owner = await newOwner();
  const title = `Chat room ${uniqueWord()}`;
  const { slug } = await withProjectDatabase((db) =>
    insertListing(db, owner, listingInput({ title, contactPhone: owner.phone, whatsapp: ticked, viber: ticked })),
  );
  return { slug, title, phone: owner.phone };
}

/** The chat links of the visible contact block: the side panel on a wide screen, the call bar on a phone. */
function contactBlock(page: Page, phone: boolean) {
  return phone ? page.getByTestId("mobile-call-bar") : page.locator("aside");
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    for (const language of LANGUAGES) {
      test(`${language}: the links a ticking owner's ad shows, exactly, on a wide screen and a 360 px phone`, async ({
        page,
      }) => {
        const listing = await aListing(true);
        const hrefs = expectedHrefs(language, listing);
        const words = chat(language);
        const prefix = language === "en" ? "" : `/${language}`;
        for (const width of [1280, 360]) {
          await page.setViewportSize({ width, height: 800 });
          await page.goto(`${prefix}/listing/${listing.slug}`);
          const block = contactBlock(page, width === 360);
          const whatsapp = block.getByRole("link", { name: words.whatsapp, exact: true });
          const viber = block.getByRole("link", { name: words.viber, exact: true });
          await expect(whatsapp).toBeVisible();
          await expect(viber).toBeVisible();
          await expect(whatsapp).toHaveAttribute("href", hrefs.whatsapp);
          await expect(viber).toHaveAttribute("href", hrefs.viber);
          await expect(viber).toHaveAttribute("title", words.viberHint);
          // The message survives in the page's script.
          const text = new URL((await whatsapp.getAttribute("href"))!).searchParams.get("text");
          expect(text).toContain(listing.title);
          expect(text).toContain(`/listing/${listing.slug}`);
          // Beside the line about never paying before a visit (ADR 077).
          await expect(block.getByText(/Never pay key money|කිසිවිටෙකත්|ஒருபோதும்/)).toBeVisible();
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        }
      });
    }

    test("an ad whose owner ticked neither shows neither", async ({ page }) => {
      const listing = await aListing(false);
      for (const width of [1280, 360]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(`/listing/${listing.slug}`);
        await expect(contactBlock(page, width === 360).getByRole("link", { name: "Call Now" })).toBeVisible();
        await expect(page.getByRole("link", { name: "WhatsApp" })).toHaveCount(0);
        await expect(page.getByRole("link", { name: "Viber" })).toHaveCount(0);
        await expect(page.locator('a[href^="https://wa.me/"], a[href^="viber:"]')).toHaveCount(0);
      }
    });
  });
}

test("ticking both boxes in the post form puts the links on the ad's page", async ({ page }) => {
  const owner = await signedInOwner(page);
  const title = `Chat posted ${uniqueWord()}`;
  await page.goto("/dashboard/listings/new");
  await fillListing(page, title);
  await expect(field(page, "Contact phone")).toHaveValue(owner.phone);
  await page.getByRole("checkbox", { name: "This number is on WhatsApp" }).check();
  await page.getByRole("checkbox", { name: "This number is on Viber" }).check();
  await field(page, "Photos").setInputFiles([await photo({ r: 40, g: 160, b: 90 }, "room.jpg")]);
  const submit = page.getByRole("button", { name: "Post listing" });
  await expect(submit).toBeEnabled({ timeout: 15_000 });
  await submit.click();
  await expect(page.getByText("Ad posted successfully! Your listing is now live.")).toBeVisible({ timeout: 15_000 });

  const found = (await (await page.request.get(`/api/listings?search=${encodeURIComponent(title)}`)).json()) as {
    ads: { slug: string; title: string }[];
  };
  const slug = found.ads.find((ad) => ad.title === title)!.slug;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/listing/${slug}`);
  const hrefs = expectedHrefs("en", { slug, title, phone: owner.phone });
  await expect(page.locator("aside").getByRole("link", { name: "WhatsApp", exact: true })).toHaveAttribute(
    "href",
    hrefs.whatsapp,
  );
  await expect(page.locator("aside").getByRole("link", { name: "Viber", exact: true })).toHaveAttribute(
    "href",
    hrefs.viber,
  );
});
