import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { adRow, field, photo, postListing, signedInOwner, uniqueWord } from "./owners";

// Editing an ad: a dialog over My Ads
// at /dashboard/listings/{id}/edit, and a page of its own without JavaScript.

test("with JavaScript: the edit dialog opens over My Ads, traps focus, closes with Escape and saves", async ({
  page,
}) => {
  await signedInOwner(page);
  const word = uniqueWord();
  const title = `Garden room ${word}`;
  await postListing(page, title);
  const row = adRow(page, title);
  const id = await row.getAttribute("data-ad-id");
  const publicHref = (await row.getByRole("link", { name: title, exact: true }).getAttribute("href"))!;

  const edit = row.getByRole("link", { name: `Edit ${title}` });
  await edit.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/dashboard/listings/${id}/edit$`));
  const dialog = page.getByRole("dialog", { name: "Edit ad" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading", { name: "Edit ad" })).toBeFocused();
  await expect(page.getByRole("heading", { name: "My Ads" })).toBeAttached();
  await expect(field(page, "Title")).toHaveValue(title);
  await expect(field(page, "Monthly rent \\(LKR\\)")).toHaveValue("17500");
  await expect(field(page, "University")).toHaveValue("University of Moratuwa");
  await expect(page.getByRole("checkbox", { name: "WiFi" })).toBeChecked();
  await expect(dialog.getByRole("img").first()).toBeVisible();

  // Tab stays inside: back from the first control lands on the last.
  await dialog.getByRole("link", { name: "Close" }).focus();
  await page.keyboard.press("Shift+Tab");
  await expect(dialog.getByRole("button", { name: "Save changes" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("link", { name: "Close" })).toBeFocused();

  const { violations } = await new AxeBuilder({ page }).include("dialog").analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

  // Escape closes it and gives focus back to the Edit button.
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(dialog).toHaveCount(0);
  await expect(edit).toBeFocused();

  await edit.click();
  await expect(dialog).toBeVisible();
  const newTitle = `Renamed garden room ${word}`;
  await field(page, "Title").fill(newTitle);
  await field(page, "Monthly rent \\(LKR\\)").fill("19000");
  // One photo replaced by another: the listing keeps 1 photo.
  await page
    .getByRole("checkbox", { name: /Remove/ })
    .first()
    .check();
  await field(page, "Photos").setInputFiles([await photo({ r: 20, g: 160, b: 60 }, "new.jpg")]);
  const save = dialog.getByRole("button", { name: "Save changes" });
  await expect(save).toBeEnabled({ timeout: 15_000 });
  await save.click();
  await expect(dialog.getByText("Ad updated successfully!")).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByRole("status").filter({ hasText: "Ad updated successfully!" })).toBeFocused();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 5_000 });
  await expect(dialog).toHaveCount(0);
  await expect(adRow(page, newTitle)).toBeVisible();
  await expect(adRow(page, newTitle).getByText("Active", { exact: true })).toBeVisible();

  // The link already shared still works and shows the change.
  await page.goto(publicHref);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(newTitle);
  await expect(page.getByText("LKR 19,000").first()).toBeVisible();
  const gallery = page.getByRole("region", { name: "Photos" });
  await expect(gallery.getByRole("link", { name: /Show photo 2 of/ })).toHaveCount(0);
});

test("a failed save keeps the dialog open with the attempt count", async ({ page }) => {
  await signedInOwner(page);
  const title = `Loft ${uniqueWord()}`;
  await postListing(page, title);
  await adRow(page, title)
    .getByRole("link", { name: `Edit ${title}` })
    .click();
  const dialog = page.getByRole("dialog", { name: "Edit ad" });
  await field(page, "Title").fill("");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(
    dialog.getByRole("alert").filter({ hasText: "Please fill in all required fields and upload at least one image." }),
  ).toBeVisible();
  await expect(dialog.getByText("Attempt 1 - Please try again")).toBeVisible();
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog.getByText("Attempt 2 - Please try again")).toBeVisible();
  await expect(page).toHaveURL(/\/edit$/);
  await page.goto("/dashboard");
  await expect(adRow(page, title)).toBeVisible();
});

test("without JavaScript: the edit page shows the form over My Ads, Close goes back, Save redirects with a banner", async ({
  browser,
  page,
}) => {
  await signedInOwner(page);
  const title = `Annex ${uniqueWord()}`;
  await postListing(page, title);
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const noJs = await context.newPage();
  await noJs.goto("/dashboard");
  const row = adRow(noJs, title);
  const id = await row.getAttribute("data-ad-id");
  await row.getByRole("link", { name: `Edit ${title}` }).click();
  await expect(noJs).toHaveURL(new RegExp(`/dashboard/listings/${id}/edit$`));
  const dialog = noJs.getByRole("dialog", { name: "Edit ad" });
  await expect(dialog).toBeVisible();
  await expect(field(noJs, "Title")).toHaveValue(title);
  await dialog.getByRole("link", { name: "Close" }).click();
  await expect(noJs).toHaveURL(/\/dashboard$/);
  await expect(dialog).toHaveCount(0);

  await noJs.goto(`/dashboard/listings/${id}/edit`);
  const newTitle = `${title} with bathroom`;
  await field(noJs, "Title").fill(newTitle);
  await noJs.getByRole("button", { name: "Save changes" }).click();
  await expect(noJs).toHaveURL(/\/dashboard\?updated=1$/);
  await expect(noJs.getByText("Ad updated successfully!")).toBeVisible();
  await expect(adRow(noJs, newTitle)).toBeVisible();
  await context.close();
});

test("another owner's edit page answers 404", async ({ browser, page }) => {
  await signedInOwner(page);
  const title = `Private ${uniqueWord()}`;
  await postListing(page, title);
  const id = await adRow(page, title).getAttribute("data-ad-id");
  const intruderContext = await browser.newContext();
  const intruder = await intruderContext.newPage();
  await signedInOwner(intruder, { name: "Intruder Owner" });
  const response = await intruder.goto(`/dashboard/listings/${id}/edit`);
  expect(response?.status()).toBe(404);
  await expect(intruder.getByRole("dialog", { name: "Edit ad" }).getByText("Ad not found")).toBeVisible();
  await expect(field(intruder, "Title")).toHaveCount(0);
  await expect(intruder.getByText(title)).toHaveCount(0);
  await intruderContext.close();
});
