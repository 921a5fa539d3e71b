import { execFileSync } from "node:child_process";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, request as playwrightRequest, test } from "@playwright/test";
import { field, fillListing, logIn, PASSWORD, photo, signedInOwner, uniqueWord } from "./owners";

// Moderation (ADR 008): a fresh account is made a moderator with the
// user:role script against this server's data, a fresh owner's listing is
// reported through the report page, and the moderator hides and restores it
// from /admin. Demo listings are never touched.

/** `npm run user:role -- email role` on the browser-test server's SQLite database. */
function setRole(email: string, role: "moderator" | "owner") {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR };
  delete env.DATABASE_URL;
  return execFileSync("npm", ["run", "--silent", "user:role", "--", email, role], {
    env,
    encoding: "utf8",
    timeout: 60_000,
  });
}

async function newPage(browser: Browser, javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled });
  return context.newPage();
}

/** The signed-in owner posts a listing; returns its title and slug. */
async function postListing(page: Page) {
  await page.goto("/dashboard/listings/new");
  const title = `Reported room ${uniqueWord()}`;
  await fillListing(page, title);
  await field(page, "Photos").setInputFiles([await photo({ r: 90, g: 120, b: 60 }, "room.jpg")]);
  await page.getByRole("button", { name: "Post listing" }).click();
  await expect(page).toHaveURL(/\/dashboard\?posted=1$/, { timeout: 15_000 });
  const href = await page
    .locator("table tbody tr")
    .getByRole("link", { name: title, exact: true })
    .getAttribute("href");
  return { title, slug: href!.replace("/listing/", "") };
}

/** A visitor reports it through the report page (the no-JavaScript path). */
async function report(browser: Browser, slug: string, reporterName: string) {
  const page = await newPage(browser, false);
  await page.goto(`/listing/${slug}/report`);
  await field(page, "Your name").fill(reporterName);
  await field(page, "Your email").fill(`${uniqueWord()}@example.lk`);
  await field(page, "Your phone number or other contact").fill("0779876543");
  await field(page, "Reason").selectOption("fake-listing");
  await page.getByLabel(/^Details/).fill("The photos belong to another house.");
  await page.getByRole("button", { name: "Submit report" }).click();
  await expect(page.getByText("Report Submitted Successfully!")).toBeVisible();
  await page.context().close();
}

test("a moderator finds a report, hides the listing with a reason, restores it, and both show in the audit log", async ({
  browser,
}) => {
  // Three people (moderator, owner, reporter) and a posted listing: more than the default 30 s on a busy machine.
  test.slow();
  const moderator = await newPage(browser);
  const { email: moderatorEmail } = await signedInOwner(moderator, { name: "Mod Erator" });
  expect(setRole(moderatorEmail, "moderator")).toContain(`${moderatorEmail} is now a moderator.`);

  // A fresh owner, posting with the plain form (no JavaScript).
  const owner = await newPage(browser, false);
  await signedInOwner(owner, { name: "Reported Owner" });
  const { title, slug } = await postListing(owner);
  const reporterName = `Reporter ${uniqueWord()}`;
  await report(browser, slug, reporterName);

  // The dashboard links moderators to /admin.
  await moderator.goto("/dashboard");
  await moderator.getByRole("link", { name: "Admin", exact: true }).click();
  await expect(moderator).toHaveURL(/\/admin$/);
  await expect(moderator.getByRole("heading", { name: "Reports queue" })).toBeVisible();
  const { violations } = await new AxeBuilder({ page: moderator }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`)).toEqual([]);

  // Filtered by reason (a GET form), the listing is in the queue with its pending report.
  await moderator.getByLabel("Reason").selectOption("fake-listing");
  await moderator.getByRole("button", { name: "Apply filters" }).click();
  await expect(moderator).toHaveURL(/reason=fake-listing/);
  const group = moderator.locator("li[data-listing-id]", { hasText: title });
  await expect(group).toContainText("1 report, 1 pending");
  await group.getByRole("link", { name: new RegExp(`^Fake Listing by ${reporterName}`) }).click();

  await expect(moderator.getByRole("heading", { name: "Report: Fake Listing" })).toBeVisible();
  await expect(moderator.getByText(reporterName)).toBeVisible();
  await expect(moderator.getByText("The photos belong to another house.")).toBeVisible();
  await expect(moderator.getByText(title)).toBeVisible();

  // A visitor without an account has the listing's page and a search that finds it from the page cache.
  const cachedVisitor = await playwrightRequest.newContext({ baseURL: new URL(moderator.url()).origin });
  const word = title.split(" ").pop()!;
  // Asked again until a hit: a write by another test during a render keeps that render out of the cache.
  for (const path of [`/listing/${slug}`, `/browse?search=${word}`]) {
    await expect.poll(async () => (await cachedVisitor.get(path)).headers()["x-page-cache"], path).toBe("HIT");
  }

  // A reason is required to hide.
  await moderator.getByRole("button", { name: "Hide listing" }).click();
  await expect(moderator.getByText("Please give a reason.")).toBeVisible();
  const reason = "The photos are of another house.";
  await moderator
    .locator('form[data-intent="hide"]')
    .getByLabel(/^Reason/)
    .fill(reason);
  await moderator.getByRole("button", { name: "Hide listing" }).click();
  await expect(moderator.getByText("Listing hidden. It is gone from every public page.")).toBeVisible();
  await expect(moderator.getByText("Hidden by a moderator")).toBeVisible();
  // Gone from every cached page within a second (ADR 012).
  const hiddenAt = Date.now();
  await expect.poll(async () => (await cachedVisitor.get(`/listing/${slug}`)).status(), { intervals: [50] }).toBe(404);
  await expect
    .poll(async () => (await (await cachedVisitor.get(`/browse?search=${word}`)).text()).includes(title), {
      intervals: [50],
    })
    .toBe(false);
  expect(Date.now() - hiddenAt).toBeLessThanOrEqual(1_000);
  await cachedVisitor.dispose();

  // Gone from the public: its page is a 404 'Listing not found'.
  const visitor = await newPage(browser);
  const response = await visitor.goto(`/listing/${slug}`);
  expect(response?.status()).toBe(404);
  await expect(visitor.getByRole("heading", { name: "Listing not found" })).toBeVisible();

  // Its owner sees why in My Ads.
  await owner.goto("/dashboard");
  const row = owner.locator("table tbody tr", { hasText: title });
  await expect(row.getByText("Hidden by a moderator")).toBeVisible();
  await expect(row.getByText(`Reason: ${reason}`)).toBeVisible();
  // No "View" to a page that answers 404; editing stays possible.
  await expect(row.getByRole("link", { name: /^View/ })).toHaveCount(0);
  await expect(row.getByRole("link", { name: /^Edit/ })).toBeVisible();

  await moderator.getByRole("button", { name: "Restore listing" }).click();
  await expect(moderator.getByText("Listing restored.")).toBeVisible();
  expect((await visitor.goto(`/listing/${slug}`))?.status()).toBe(200);
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(title);

  await moderator.getByRole("link", { name: "Audit log" }).click();
  await expect(moderator).toHaveURL(/\/admin\/audit$/);
  const hid = moderator.locator('tr[data-action="listing.hide"]', { hasText: title });
  await expect(hid).toContainText(moderatorEmail);
  await expect(hid).toContainText(reason);
  await expect(moderator.locator('tr[data-action="listing.restore"]', { hasText: title })).toContainText(
    moderatorEmail,
  );
});

test("a suspended owner is signed out and cannot log in until reinstated", async ({ browser }) => {
  // Three people (moderator, owner, reporter) and a posted listing: more than the default 30 s on a busy machine.
  test.slow();
  const moderator = await newPage(browser);
  setRole((await signedInOwner(moderator, { name: "Second Mod" })).email, "moderator");
  const owner = await newPage(browser, false);
  const { email: ownerEmail } = await signedInOwner(owner, { name: "Suspended Owner" });
  const { title, slug } = await postListing(owner);
  await report(browser, slug, "Careful Student");

  await moderator.goto("/admin?status=pending&reason=fake-listing");
  await moderator.locator("li[data-listing-id]", { hasText: title }).getByRole("link").first().click();
  await moderator
    .locator('form[data-intent="suspend"]')
    .getByLabel(/^Reason/)
    .fill("Asked students for deposits before visits.");
  await moderator.getByRole("button", { name: "Suspend owner" }).click();
  await expect(moderator.getByText("Owner suspended.", { exact: false })).toBeVisible();

  await owner.goto("/dashboard");
  await expect(owner).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
  await owner.getByLabel("Email Address").fill(ownerEmail);
  await field(owner, "Password").fill(PASSWORD);
  await owner.getByRole("button", { name: "Log In" }).click();
  await expect(owner.getByText("This account has been disabled. Please contact support for assistance.")).toBeVisible();
  expect((await owner.goto(`/listing/${slug}`))?.status()).toBe(404);

  await moderator.getByRole("button", { name: "Reinstate owner" }).click();
  await expect(moderator.getByText("Owner reinstated.", { exact: false })).toBeVisible();
  expect((await owner.goto(`/listing/${slug}`))?.status()).toBe(200);
  await logIn(owner, ownerEmail, PASSWORD);
});

test("/admin refuses a plain owner and sends a visitor to log in", async ({ page, browser }) => {
  await signedInOwner(page, { name: "Plain Owner" });
  const response = await page.goto("/admin");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "You do not have access to this page." })).toBeVisible();
  await page.goto("/dashboard");
  await expect(page.getByRole("link", { name: "Admin", exact: true })).toHaveCount(0);

  const visitor = await newPage(browser);
  await visitor.goto("/admin");
  await expect(visitor).toHaveURL(/\/login\?redirectTo=%2Fadmin$/);
});
