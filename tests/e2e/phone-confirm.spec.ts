import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { uniquePhone } from "../owner-session";
import { field, fillListing, photo, postListing, signedInOwner, uniqueWord } from "./owners";
import { withProjectDatabase } from "./server-db";
import { readTexts, waitForCode } from "./sms";

// The contact phone is confirmed once by a 6-digit code sent by SMS before an ad with it goes
// public (ADR 076), inside the post form, with and without JavaScript. The texts go through the
// real Notify.lk adapter to the stand-in gateway (tests/sms-gateway.ts, playwright.config.ts).

const tamil = JSON.parse(fs.readFileSync("app/i18n/ta/listing-form.json", "utf8")) as {
  submit: string;
  phoneConfirm: Record<string, string>;
};

/** The local 10-digit form the site shows (app/lib/phone.ts localPhone). */
const local = (phone: string) => `0${phone.replace(/\D/g, "").slice(-9)}`;

async function openNewAd(page: Page, title: string) {
  await page.goto("/dashboard/listings/new");
  await fillListing(page, title);
}

async function isLive(page: Page, word: string) {
  await page.goto(`/browse?search=${word}`);
  await expect(page.locator('a[href^="/listing/"]').first()).toBeVisible();
}

test("with JavaScript: a new number gets 'Send code', the texted code confirms it, and the ad goes live", async ({
  page,
}) => {
  await signedInOwner(page);
  const word = uniqueWord();
  const phone = uniquePhone();
  await openNewAd(page, `Room ${word}`);
  await field(page, "Contact phone").fill(phone);
  await expect(page.getByText("We confirm each ad's phone number once, by a 6-digit code sent by SMS.")).toBeVisible();
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(
    page.getByText(`We sent a 6-digit code to ${local(phone)}. Enter it here within 10 minutes.`),
  ).toBeVisible();
  const code = await waitForCode(phone);
  expect(readTexts(phone)[0].sender).toBe("Bodima");
  await page.getByLabel("Code from the SMS").fill(code);
  await page.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(page.getByText("Phone number confirmed ✓")).toBeVisible();

  await field(page, "Photos").setInputFiles([await photo({ r: 200, g: 90, b: 40 }, "room.jpg")]);
  const submit = page.getByRole("button", { name: "Post listing" });
  await expect(submit).toBeEnabled({ timeout: 15_000 });
  await submit.click();
  await expect(page.getByText("Ad posted successfully! Your listing is now live.")).toBeVisible({ timeout: 15_000 });
  await isLive(page, word);
  // One text for one number.
  expect(readTexts(phone)).toHaveLength(1);
});

test("without JavaScript on a 360 px phone: the post comes back with the notice, the code field and the photo, and the code posts it", async ({
  browser,
  page,
}) => {
  await signedInOwner(page);
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 360, height: 740 },
    storageState: await page.context().storageState(),
  });
  const noJs = await context.newPage();
  const word = uniqueWord();
  const phone = uniquePhone();
  await openNewAd(noJs, `Annex ${word}`);
  await field(noJs, "Contact phone").fill(phone);
  await field(noJs, "Photos").setInputFiles([await photo({ r: 40, g: 160, b: 90 }, "annex.jpg")]);
  await noJs.getByRole("button", { name: "Post listing" }).click();

  await expect(
    noJs.getByText(`We sent a 6-digit code to ${local(phone)}. Enter it below to post your ad.`),
  ).toBeVisible();
  await expect(field(noJs, "Title")).toHaveValue(`Annex ${word}`);
  await expect(field(noJs, "Contact phone")).toHaveValue(phone);
  // The photo is kept: shown as an uploaded one, and sent again with the form.
  await expect(noJs.getByRole("img", { name: "Photo 1 of your listing" })).toBeVisible();
  await expect(noJs.locator('input[type="hidden"][name="uploadIds"]')).toHaveCount(1);
  const codeField = noJs.getByLabel("Code from the SMS");
  await expect(codeField).toBeVisible();
  // Nothing on the page is wider than the phone's screen.
  expect(await noJs.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  await codeField.fill(await waitForCode(phone));
  await noJs.getByRole("button", { name: "Post listing" }).click();
  await expect(noJs).toHaveURL(/\/dashboard\?posted=1$/, { timeout: 15_000 });
  await expect(noJs.getByText("Ad posted successfully! Your listing is now live.")).toBeVisible();
  await isLive(noJs, word);
  await context.close();
});

test("in Tamil: a wrong code is refused in words, with the tries left, and nothing is posted", async ({ page }) => {
  const owner = await signedInOwner(page);
  await withProjectDatabase((db) => db.updateTable("users").set({ locale: "ta" }).where("id", "=", owner.id).execute());
  const word = uniqueWord();
  const phone = uniquePhone();
  await page.goto("/ta/dashboard/listings/new");
  await expect(page.locator("html")).toHaveAttribute("lang", "ta");
  await page.locator("input[name='title']").fill(`Room ${word}`);
  await page.locator("textarea[name='description']").fill("A quiet room near the campus, with a desk.");
  await page.locator("input[name='price']").fill("15000");
  await page.locator("select[name='university']").selectOption("University of Moratuwa");
  await page.locator("input[name='contactPhone']").fill(phone);
  await page.getByRole("button", { name: tamil.phoneConfirm.sendCode }).click();
  const code = await waitForCode(phone);
  // The text is in the owner's language (Tamil letters).
  expect(readTexts(phone)[0].text).toMatch(/[\u0B80-\u0BFF]/);
  const wrong = code === "000000" ? "111111" : "000000";
  await page.getByLabel(tamil.phoneConfirm.codeLabel).fill(wrong);
  await page.getByRole("button", { name: tamil.phoneConfirm.confirm, exact: true }).click();
  await expect(page.getByText("அந்தக் குறியீடு சரியில்லை. இன்னும் 2 முயற்சிகள் உள்ளன.")).toBeVisible();
  await expect(page.getByText(tamil.phoneConfirm.confirmedShort)).toHaveCount(0);

  // Posting with the wrong code is refused by the server too, and says so on the code field.
  await page
    .locator("input[name='photos'], input[type='file']")
    .first()
    .setInputFiles([await photo({ r: 10, g: 60, b: 200 }, "room.jpg")]);
  const submit = page.getByRole("button", { name: tamil.submit });
  await expect(submit).toBeEnabled({ timeout: 15_000 });
  await submit.click();
  await expect(page.getByText("அந்தக் குறியீடு சரியில்லை. இன்னும் 1 முயற்சி உள்ளது.").first()).toBeVisible();
  await page.goto(`/browse?search=${word}`);
  await expect(page.locator('a[href^="/listing/"]')).toHaveCount(0);
});

test("a second account cannot confirm a number the first one confirmed and has a live ad with", async ({
  browser,
  page,
}) => {
  const first = await signedInOwner(page);
  await postListing(page, `Room ${uniqueWord()}`);
  const context = await browser.newContext();
  const other = await context.newPage();
  await signedInOwner(other);
  await openNewAd(other, `Copy ${uniqueWord()}`);
  await field(other, "Contact phone").fill(first.phone);
  await other.getByRole("button", { name: "Send code" }).click();
  await expect(
    other.getByText(
      "This number is already confirmed by another account. Use a number of your own, or contact us if it is yours.",
    ),
  ).toBeVisible();
  expect(readTexts(first.phone)).toEqual([]);
  await context.close();
});

test("after 180 days My Ads asks to confirm the number again; without JavaScript one tap sends a code that confirms it", async ({
  browser,
  page,
}) => {
  const owner = await signedInOwner(page);
  await postListing(page, `Room ${uniqueWord()}`);
  // The confirmation signedInOwner wrote, 181 days old now.
  const longAgo = new Date(Date.now() - 181 * 24 * 60 * 60 * 1000).toISOString();
  await withProjectDatabase((db) =>
    db.updateTable("phone_confirmations").set({ confirmedAt: longAgo }).where("userId", "=", owner.id).execute(),
  );
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const noJs = await context.newPage();
  await noJs.goto("/dashboard");
  const title = `Confirm ${owner.phone} again to keep the Phone confirmed badge`;
  await expect(noJs.getByText(title)).toBeVisible();
  await noJs.getByRole("button", { name: "Send code" }).click();
  await expect(noJs).toHaveURL(/\/dashboard\?phone=\d+&phoneCode=sent$/);
  await expect(
    noJs.getByText(`We sent a 6-digit code to ${owner.phone}. Enter it here within 10 minutes.`),
  ).toBeVisible();
  await noJs.getByLabel("Code from the SMS").fill(await waitForCode(owner.phone));
  await noJs.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(noJs).toHaveURL(/phoneCode=confirmed$/);
  await expect(noJs.getByText(`${owner.phone} is confirmed again: your ads with it show the badge.`)).toBeVisible();
  await expect(noJs.getByText(title)).toHaveCount(0);
  await context.close();
});
