import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { field, fillListing, photo, signedInOwner, uniqueWord } from "./owners";

// Photos in the post form (ADR 009): with JavaScript each picked file
// is checked, resized in the browser and uploaded at once with its own
// progress bar; the form then sends only the uploaded photos' ids.

const colours = [
  { r: 200, g: 80, b: 40 },
  { r: 40, g: 80, b: 200 },
  { r: 60, g: 160, b: 90 },
  { r: 220, g: 200, b: 40 },
];
const jpegs = (count: number) => Promise.all(colours.slice(0, count).map((c, i) => photo(c, `room-${i + 1}.jpg`)));

/** The new-ad form with the picker enhanced (after hydration the file input stops posting files itself). */
async function openForm(page: Page) {
  await signedInOwner(page);
  await page.goto("/dashboard/listings/new");
  await expect(field(page, "Photos")).not.toHaveAttribute("name", "photos");
}

const thumbnails = (page: Page) => page.getByRole("img", { name: /^Photo \d of your listing$/ });
const progressBars = (page: Page) => page.getByRole("progressbar", { name: /^Uploading photo \d$/ });
const uploadIds = (page: Page) => page.locator('input[type="hidden"][name="uploadIds"]');

/** Holds uploads for a moment so their progress can be seen, however fast the machine. */
async function slowUploads(page: Page) {
  await page.route("**/dashboard/photos", async (route) => {
    await new Promise((r) => setTimeout(r, 1_000));
    await route.continue();
  });
}

test("two picked photos each show a progress bar, then a thumbnail; the page passes axe", async ({ page }) => {
  await openForm(page);
  await slowUploads(page);
  await field(page, "Photos").setInputFiles(await jpegs(2));
  await expect(progressBars(page)).toHaveCount(2);
  await expect(thumbnails(page)).toHaveCount(2, { timeout: 15_000 });
  await expect(progressBars(page)).toHaveCount(0);
  for (const img of await thumbnails(page).all()) {
    await expect(img).toHaveAttribute("src", /^\/photos\/[0-9a-f-]{36}-400\.webp$/);
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
  }
  await expect(uploadIds(page)).toHaveCount(2);
  // The file input itself is empty: the form will not send the files a second time.
  expect(await field(page, "Photos").evaluate((el: HTMLInputElement) => el.files?.length ?? 0)).toBe(0);
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
});

test("a text file and a file of 5MB are refused at once with the spec's messages", async ({ page }) => {
  await openForm(page);
  await field(page, "Photos").setInputFiles([
    { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a photo") },
  ]);
  await expect(page.getByRole("alert")).toContainText("File 1: Must be an image file");
  await field(page, "Photos").setInputFiles([
    { name: "huge.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(5 * 1024 * 1024) },
  ]);
  await expect(page.getByRole("alert")).toContainText("File 1: Size must be less than 5MB");
  await expect(page.getByRole("alert")).not.toContainText("Must be an image file");
  await expect(thumbnails(page)).toHaveCount(0);
  await expect(uploadIds(page)).toHaveCount(0);
});

test("four picked photos: 'Maximum 3 images allowed' and only three are uploaded", async ({ page }) => {
  await openForm(page);
  await field(page, "Photos").setInputFiles(await jpegs(4));
  await expect(page.getByRole("alert")).toContainText("Maximum 3 images allowed");
  await expect(thumbnails(page)).toHaveCount(3, { timeout: 15_000 });
  await expect(uploadIds(page)).toHaveCount(3);
  await expect(page.getByText("room-4.jpg")).toHaveCount(0);
  // Full: one more is refused too.
  await field(page, "Photos").setInputFiles(await jpegs(1));
  await expect(page.getByRole("alert")).toContainText("Maximum 3 images allowed");
  await expect(uploadIds(page)).toHaveCount(3);
});

test("an upload the server refuses shows its message and can be removed", async ({ page }) => {
  await openForm(page);
  await field(page, "Photos").setInputFiles([
    { name: "fake.jpg", mimeType: "image/jpeg", buffer: Buffer.from("just some text") },
  ]);
  await expect(page.getByRole("alert")).toContainText("File 1: Invalid image file", { timeout: 15_000 });
  await expect(uploadIds(page)).toHaveCount(0);
  await page.getByRole("button", { name: "Remove photo 1" }).click();
  await expect(page.getByText("File 1: Invalid image file")).toHaveCount(0);
});

test("removing an uploaded photo takes it off the form and off the server", async ({ page }) => {
  await openForm(page);
  await field(page, "Photos").setInputFiles(await jpegs(2));
  await expect(uploadIds(page)).toHaveCount(2, { timeout: 15_000 });
  const removedUrl = await thumbnails(page).first().getAttribute("src");
  const keptId = await uploadIds(page).nth(1).inputValue();
  const deleted = page.waitForResponse((r) => r.url().includes("/dashboard/photos/") && r.url().endsWith("/delete"));
  const remove = page.getByRole("button", { name: "Remove photo 1" });
  await remove.focus();
  await page.keyboard.press("Enter");
  expect((await deleted).status()).toBe(200);
  await expect(thumbnails(page)).toHaveCount(1);
  await expect(uploadIds(page)).toHaveCount(1);
  await expect(uploadIds(page)).toHaveValue(keptId);
  await expect(field(page, "Photos")).toBeFocused();
  expect((await page.request.get(removedUrl!)).status()).toBe(404);
});

test("a post with two uploaded photos shows both on the listing page", async ({ page }) => {
  await openForm(page);
  const word = uniqueWord();
  await fillListing(page, `Uploaded room ${word}`);
  await field(page, "Photos").setInputFiles(await jpegs(2));
  await expect(thumbnails(page)).toHaveCount(2, { timeout: 15_000 });
  await page.getByRole("button", { name: "Post listing" }).click();
  await expect(page.getByText("Ad posted successfully! Your listing is now live.")).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/dashboard(\?posted=1)?$/, { timeout: 15_000 });

  await page.goto(`/browse?search=${word}`);
  await page.locator('a[href^="/listing/"]').first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Uploaded room ${word}`);
  const gallery = page.getByRole("region", { name: "Photos" });
  await expect(gallery.getByRole("link", { name: "Show photo 2 of 2" })).toBeVisible();
  await expect(gallery.getByRole("link", { name: /Show photo 3 of/ })).toHaveCount(0);
});

test("closing the file chooser without picking leaves the form open", async ({ page }) => {
  await openForm(page);
  await field(page, "Photos").dispatchEvent("cancel", { bubbles: true });
  // Closing the dialog would navigate to /dashboard within a moment.
  await page.waitForTimeout(500);
  await expect(page).toHaveURL(/\/dashboard\/listings\/new$/);
  await expect(field(page, "Photos")).toBeVisible();
});

test("a large photo is resized in the browser to fit 1200x1200 and sent as JPEG", async ({ page }) => {
  await openForm(page);
  const sent: Buffer[] = [];
  await page.route("**/dashboard/photos", async (route) => {
    const body = route.request().postDataBuffer()!;
    const start = body.indexOf("\r\n\r\n", body.indexOf('name="photo"')) + 4;
    sent.push(body.subarray(start, body.lastIndexOf("\r\n--")));
    await route.continue();
  });
  const large = await sharp({
    create: { width: 3000, height: 2000, channels: 3, background: { r: 90, g: 120, b: 200 } },
  })
    .png()
    .toBuffer();
  await field(page, "Photos").setInputFiles([{ name: "large.png", mimeType: "image/png", buffer: large }]);
  await expect(uploadIds(page)).toHaveCount(1, { timeout: 15_000 });
  expect(sent).toHaveLength(1);
  const meta = await sharp(sent[0]).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1200, 800]);
});
