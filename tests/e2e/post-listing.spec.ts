import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { field, fillListing, logIn, photo, signedInOwner, uniqueWord } from "./owners";

// Posting an ad (ADR 009): the form works with and without JavaScript, the
// listing goes live with its photos, and the 3-ad limit holds on the server.

const OWNER2 = { email: "owner2@demo.bodima.lk", password: "Bodima-demo-2026" };
const LIMIT_ALERT = "You have reached your ad posting limit (3 ads). Please delete an existing ad to post a new one.";
const LIMIT_ERROR = "Maximum 3 ads allowed per user. Please delete an existing ad to post a new one.";

async function signedInWithoutJs(browser: Browser, page: Page) {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  return context.newPage();
}

test("a new owner posts an ad with 2 photos through the dialog and finds it live on /browse", async ({ page }) => {
  const owner = await signedInOwner(page);
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Post Your First Ad" }).click();
  await expect(page).toHaveURL(/\/dashboard\/listings\/new$/);
  const dialog = page.getByRole("dialog", { name: "Post an ad" });
  await expect(dialog).toBeVisible();
  // My Ads stays underneath.
  await expect(page.getByRole("heading", { name: "My Ads" })).toBeAttached();
  const word = uniqueWord();
  await fillListing(page, `Sunny room ${word}`);
  // ADR 047: what moving in costs, beside the key money fillListing gives (35,000 on 17,500 a month).
  await field(page, "Advance \\(months of rent\\)").selectOption({ label: "2 months" });
  await field(page, "Refundable deposit \\(LKR\\)").fill("5000");
  // About 1.4 km north of the University of Moratuwa's main campus (6.7951, 79.9009).
  await field(page, "Position \\(latitude, longitude\\)").fill("6.8077, 79.9009");
  // The owner chooses to show the exact point (otherwise it is shown to about 100 m), and the form says what that shows.
  const exactBox = page.getByRole("checkbox", { name: "Show the exact point on my listing" });
  await expect(exactBox).toHaveAccessibleDescription(/^Students see the place to about 100 m/);
  await exactBox.check();
  await expect(exactBox).toHaveAccessibleDescription(/^Students see the exact point/);
  // ADR 051: the facts students ask first; meals and visitors are left 'Not stated'.
  await field(page, "Electricity and water bills").selectOption({ label: "Included in the rent" });
  await field(page, "Bathroom").selectOption({ label: "Attached" });
  await field(page, "Curfew").selectOption({ label: "No curfew" });
  await field(page, "Cooking").selectOption({ label: "Allowed" });
  // A single room has no beds to count: with JavaScript the form does not ask.
  await expect(field(page, "Beds free now")).toHaveCount(0);
  await expect(field(page, "City")).toHaveValue("Moratuwa");
  await expect(field(page, "Contact name")).toHaveValue("Poster Owner");
  await expect(field(page, "Contact phone")).toHaveValue(owner.phone);
  // signedInOwner's number is confirmed already (ADR 076): no code is asked.
  await expect(page.getByText("Phone number confirmed ✓")).toBeVisible();
  await field(page, "Google Maps link").fill("https://maps.app.goo.gl/abc123");
  await expect(page.getByRole("link", { name: "Test link" })).toHaveAttribute("href", "https://maps.app.goo.gl/abc123");
  // A short link cannot be read without asking Google: the form asks for the pin or the numbers instead.
  await expect(page.getByText(/^This link does not show where the place is/)).toBeVisible();
  await field(page, "Photos").setInputFiles([
    await photo({ r: 200, g: 80, b: 40 }, "one.jpg"),
    await photo({ r: 40, g: 80, b: 200 }, "two.jpg"),
  ]);
  await expect(page.getByRole("button", { name: "Post listing" })).toBeEnabled({ timeout: 15_000 });
  await page.getByRole("button", { name: "Post listing" }).click();
  const success = dialog.getByText("Ad posted successfully! Your listing is now live.");
  await expect(success).toBeVisible({ timeout: 15_000 });
  const shownAt = Date.now();
  // The message stays 2 seconds, then the dialog closes.
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 5_000 });
  expect(Date.now() - shownAt).toBeGreaterThan(1_500);
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText("You have 1 ad.")).toBeVisible();
  // The link that opened the dialog is gone with the empty state: focus lands on My Ads.
  await expect(page.getByRole("heading", { name: "My Ads" })).toBeFocused();
  await expect(
    page.locator("table tbody tr").getByRole("link", { name: `Sunny room ${word}`, exact: true }),
  ).toBeVisible();

  const moveIn = "Move-in cost: LKR 75,000 (key money 35,000 + deposit 5,000 + 2 months' rent 35,000)";
  await page.goto(`/browse?search=${word}`);
  await expect(page.getByText(moveIn)).toBeVisible();
  await expect(page.getByRole("article").getByText("Bills included", { exact: true })).toBeVisible();
  const card = page.locator('a[href^="/listing/"]').first();
  await expect(card).toBeVisible();
  await card.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Sunny room ${word}`);
  const gallery = page.getByRole("region", { name: "Photos" });
  await expect(gallery.getByRole("link", { name: "Show photo 2 of 2" })).toBeVisible();
  await expect(gallery.getByRole("link", { name: /Show photo 3 of/ })).toHaveCount(0);
  await expect(page.getByText("LKR 17,500").first()).toBeVisible();
  await expect(page.getByText(moveIn)).toBeVisible();
  // Beside Call Now on a wide screen, in the call bar on a phone (ADR 077): one of them shows.
  await expect(
    page
      .getByText("Never pay key money or an advance before you have seen the place and met the owner.")
      .filter({ visible: true }),
  ).toHaveCount(1);
  await expect(
    page.getByText(/^1\.4 km from University of Moratuwa, Moratuwa · about \d+ min walk \(estimate\)$/),
  ).toBeVisible();
  // The exact point the owner chose to show is public, not rounded to about 100 m.
  const api = await (await page.request.get(`/api/listings?search=${word}`)).json();
  expect(api.ads[0]).toMatchObject({ latitude: 6.8077, longitude: 79.9009 });
  const facts = page.getByRole("region", { name: "What students ask first" });
  await expect(facts.getByRole("listitem")).toHaveText([
    "Bills: included in the rent",
    "Bathroom: attached",
    "Curfew: none",
    "Cooking allowed",
  ]);
  await expect(facts.getByText("Not stated, ask when you call: meals, visitors")).toBeVisible();
});

test("without the exact point, the page, its data and the API show the place only to about 100 m (ADR 065)", async ({
  page,
}) => {
  await signedInOwner(page);
  await page.goto("/dashboard/listings/new");
  const word = uniqueWord();
  await fillListing(page, `Quiet annex ${word}`);
  const exactLink = "https://maps.google.com/?q=6.80771,79.90093";
  await field(page, "Google Maps link").fill(exactLink);
  await expect(page.getByRole("checkbox", { name: "Show the exact point on my listing" })).not.toBeChecked();
  await expect(page.getByText(/^Students see the place to about 100 m/)).toBeVisible();
  await field(page, "Photos").setInputFiles([await photo({ r: 90, g: 160, b: 60 }, "annex.jpg")]);
  await expect(page.getByRole("button", { name: "Post listing" })).toBeEnabled({ timeout: 15_000 });
  await page.getByRole("button", { name: "Post listing" }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });

  const rounded = "https://www.google.com/maps/search/?api=1&query=6.808,79.901";
  const exactDigits = /6\.8077|79\.9009/;
  const api = await page.request.get(`/api/listings?search=${word}`);
  const { ads } = await api.json();
  expect(ads[0]).toMatchObject({ location: rounded, latitude: 6.808, longitude: 79.901 });
  const item = await page.request.get(`/api/listings/${ads[0].slug}`);
  expect(await item.text()).not.toMatch(exactDigits);
  // The page's HTML as a visitor gets it: text, link, head tags, JSON-LD and the loader data it hydrates from.
  const html = await (await page.request.get(`/listing/${ads[0].slug}`)).text();
  expect(html).toContain("Quiet annex");
  expect(html).not.toMatch(exactDigits);
  await page.goto(`/listing/${ads[0].slug}`);
  await expect(page.getByRole("link", { name: /View Location/ })).toHaveAttribute("href", rounded);
  // The owner still sees their own link on the edit form.
  await page.goto("/dashboard");
  await page.getByRole("link", { name: `Edit Quiet annex ${word}` }).click();
  const dialog = page.getByRole("dialog", { name: "Edit ad" });
  await expect(dialog.getByRole("textbox", { name: "Google Maps link" })).toHaveValue(exactLink);
});

test("an owner drops a pin on a map to give the position, without needing map tiles (ADR 053)", async ({ page }) => {
  await signedInOwner(page);
  await page.goto("/dashboard/listings/new");
  await field(page, "University").selectOption("University of Moratuwa");
  await page.getByRole("button", { name: "Pick the place on a map" }).click();
  // Tests have no network: the map has no tiles, yet a tap still gives a position.
  const map = page.getByTestId("position-map");
  await expect(map.locator(".leaflet-map-pane")).toBeAttached();
  const box = await map.boundingBox();
  if (!box) throw new Error("no map");
  // The map opens at the university's campus; a tap at its centre drops the pin there.
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(field(page, "Position \\(latitude, longitude\\)")).toHaveValue(/^6\.79\d{3}, 79\.90\d{3}$/);
  // A tap further east moves it.
  await page.mouse.click(box.x + box.width / 2 + 100, box.y + box.height / 2);
  await expect(field(page, "Position \\(latitude, longitude\\)")).toHaveValue(/^6\.79\d{3}, 79\.90[1-9]\d{2}$/);
  await page.getByRole("button", { name: "Close the map" }).click();
  await expect(map).toHaveCount(0);
});

test("the form refuses a fake image and keeps the values", async ({ page }) => {
  await signedInOwner(page);
  await page.goto("/dashboard/listings/new");
  await fillListing(page, "Room with a fake photo");
  await field(page, "Photos").setInputFiles([
    { name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("just some text") },
  ]);
  // The picker checks the file at once; posting with its error outstanding is refused in the browser.
  await expect(page.getByText("File 1: Invalid image file")).toBeVisible({ timeout: 15_000 });
  await page.getByRole("button", { name: "Post listing" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Please fix image upload errors before submitting." }),
  ).toBeVisible();
  await expect(page.getByText("Attempt 1 - Please try again")).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  await expect(field(page, "Title")).toHaveValue("Room with a fake photo");
  await expect(field(page, "University")).toHaveValue("University of Moratuwa");
});

test("a photo of 6 MB is refused with the spec's message and nothing is posted", async ({ page }) => {
  await signedInOwner(page);
  await page.goto("/dashboard/listings/new");
  await fillListing(page, "Room with a heavy photo");
  const { buffer } = await photo({ r: 200, g: 180, b: 160 }, "big.jpg");
  // A real JPEG followed by padding: 6 MB on the wire, an image by its content.
  const heavy = Buffer.concat([buffer, Buffer.alloc(6 * 1024 * 1024)]);
  await field(page, "Photos").setInputFiles([{ name: "big.jpg", mimeType: "image/jpeg", buffer: heavy }]);
  await page.getByRole("button", { name: "Post listing" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "File 1: Size must be less than 5MB" })).toBeVisible();
  await page.goto("/dashboard");
  await expect(page.getByText("You have 0 ads.")).toBeVisible();
});

test("an owner at 3 ads sees the limit instead of the form, and the server refuses a post", async ({
  page,
  baseURL,
}) => {
  await logIn(page, OWNER2.email, OWNER2.password);
  await page.goto("/dashboard/listings/new");
  await expect(page.getByRole("dialog").getByText(LIMIT_ALERT)).toBeVisible();
  await expect(page.getByRole("button", { name: "Post listing" })).toHaveCount(0);

  const response = await page.request.post("/dashboard/listings/new", {
    headers: { Origin: new URL(baseURL!).origin },
    multipart: {
      title: "One too many",
      description: "Should never be stored.",
      price: "10000",
      university: "University of Moratuwa",
      faculty: "Main Campus",
      propertyType: "single",
      gender: "any",
      contactName: "Owner Two",
      contactPhone: "0771234567",
      photos: await photo({ r: 10, g: 10, b: 10 }, "room.jpg"),
    },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(409);
  const html = await response.text();
  expect(html).toContain(LIMIT_ERROR);
  expect(html).toContain(LIMIT_ALERT);
});

test("a post without a session goes to the login page", async ({ playwright, baseURL }) => {
  const anonymous = await playwright.request.newContext({ baseURL });
  const response = await anonymous.post("/dashboard/listings/new", {
    headers: { Origin: new URL(baseURL!).origin },
    multipart: { title: "Anonymous" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  expect(response.headers().location).toBe("/login?redirectTo=%2Fdashboard%2Flistings%2Fnew");
  await anonymous.dispose();
});

test("without JavaScript the form shows errors, keeps values and posts", async ({ browser, page }) => {
  await signedInOwner(page);
  const noJs = await signedInWithoutJs(browser, page);
  await noJs.goto("/dashboard/listings/new");
  const word = uniqueWord();
  await field(noJs, "Description").fill("Annex with a private bathroom.");
  await field(noJs, "Monthly rent \\(LKR\\)").fill("22000");
  await field(noJs, "University").selectOption("University of Colombo");
  await field(noJs, "Advance \\(months of rent\\)").selectOption({ label: "1 month" });
  // ADR 051: a hostel's beds (always asked without JavaScript); more free than in all is refused.
  await field(noJs, "Property type").selectOption({ label: "Hostel" });
  await field(noJs, "Beds free now").fill("3");
  await field(noJs, "Beds in all").fill("2");
  await field(noJs, "Meals").selectOption({ label: "Available (extra charge)" });
  // Chennai: outside Sri Lanka, refused on the field that gave it.
  await field(noJs, "Position \\(latitude, longitude\\)").fill("13.0827, 80.2707");
  await noJs.getByRole("button", { name: "Post listing" }).click();
  await expect(
    noJs.getByText("This position is outside Sri Lanka. Check the link or the numbers.").first(),
  ).toBeVisible();
  await expect(field(noJs, "Position \\(latitude, longitude\\)")).toHaveValue("13.0827, 80.2707");
  await field(noJs, "Position \\(latitude, longitude\\)").fill("");
  await expect(noJs.getByRole("alert").first()).toContainText(
    "Please fill in all required fields and upload at least one image.",
  );
  await expect(field(noJs, "Description")).toHaveValue("Annex with a private bathroom.");
  await expect(field(noJs, "Advance \\(months of rent\\)")).toHaveValue("1");
  await expect(noJs.getByText("Beds free cannot be more than the beds in all.").first()).toBeVisible();
  await expect(field(noJs, "Meals")).toHaveValue("available");
  await field(noJs, "Beds in all").fill("10");

  await field(noJs, "Title").fill(`Annex ${word}`);
  await field(noJs, "Nearest faculty or campus").selectOption("Faculty of Medicine Colombo");
  await field(noJs, "Photos").setInputFiles([await photo({ r: 90, g: 160, b: 60 }, "annex.jpg")]);
  await noJs.getByRole("button", { name: "Post listing" }).click();
  await expect(noJs).toHaveURL(/\/dashboard\?posted=1$/, { timeout: 15_000 });
  await expect(noJs.getByText("Ad posted successfully! Your listing is now live.")).toBeVisible();

  await noJs.goto(`/browse?search=${word}`);
  await expect(noJs.locator('a[href^="/listing/"]').first()).toBeVisible();
  await noJs.locator('a[href^="/listing/"]').first().click();
  await expect(noJs.getByText("Move-in cost: LKR 22,000 (1 month's rent 22,000)")).toBeVisible();
  await expect(noJs.getByText("Beds: 3 of 10 free")).toBeVisible();
  await expect(noJs.getByText("Meals: available for an extra charge")).toBeVisible();
  // No position given: the distance counts from the city's centre and says so.
  await expect(noJs.getByText(/^About [\d.,]+ k?m from Faculty of Medicine.*\(approximate location: /)).toBeVisible();
  await noJs.context().close();
});
