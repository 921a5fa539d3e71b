import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";

// My Ads (docs/features.md). Only this spec touches owner1's
// demo listings (it deletes them), so its tests run in order. Renewing needs
// an expired listing, which the demo data has none of: renew.spec.ts makes
// one of its own.

const PASSWORD = "Bodima-demo-2026";
const OWNER1 = "owner1@demo.bodima.lk";
const OWNER2 = "owner2@demo.bodima.lk";

test.describe.configure({ mode: "serial" });

async function logIn(page: Page, email: string) {
  await page.goto("/login?redirectTo=%2Fdashboard");
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
}

async function ownerPage(browser: Browser, email: string, javaScriptEnabled = true) {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  await logIn(page, email);
  return { context, page };
}

/** The My Ads table, not the tables of figures under each ad's chart (ADR 089). */
function myAdsTable(page: Page) {
  return page.locator("table", { has: page.locator("caption", { hasText: "Your ads" }) });
}

/** The My Ads table rows (the desktop viewport shows the table, not the cards). */
function rows(page: Page) {
  return myAdsTable(page).locator("tbody tr");
}

async function firstAd(page: Page) {
  const row = rows(page).first();
  const link = row.getByRole("link").first();
  return {
    id: await row.getAttribute("data-ad-id"),
    title: (await link.textContent())!.trim(),
    href: (await link.getAttribute("href"))!,
  };
}

test("owner1 sees its listings with status, posted date, days left and views; the page is accessible", async ({
  browser,
}) => {
  const { context, page } = await ownerPage(browser, OWNER1);
  await expect(page.getByRole("heading", { name: "My Ads" })).toBeVisible();
  await expect(rows(page)).toHaveCount(2);
  for (const row of await rows(page).all()) {
    await expect(row.getByText("Active", { exact: true })).toBeVisible();
    // Demo listings were posted on different days: each is active, so 1 to 30 days are left.
    const left = row.getByText(/^\d+ days? left$/);
    await expect(left).toBeVisible();
    const days = Number.parseInt((await left.textContent())!, 10);
    expect(days).toBeGreaterThanOrEqual(1);
    expect(days).toBeLessThanOrEqual(30);
    await expect(row.getByText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/)).toBeVisible();
    await expect(row.getByText(/^\d+ views?$/)).toBeVisible();
    await expect(row.getByRole("link", { name: /^View / })).toBeVisible();
    await expect(row.getByRole("link", { name: /^Delete / })).toBeVisible();
    await expect(row.getByRole("link", { name: /^Edit / })).toHaveAttribute(
      "href",
      `/dashboard/listings/${await row.getAttribute("data-ad-id")}/edit`,
    );
    // Renew is only for expired ads.
    await expect(row.getByRole("button", { name: /^Renew / })).toHaveCount(0);
  }
  await expect(page.getByText("You have 2 ads.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Post New Ad" })).toHaveAttribute("href", "/dashboard/listings/new");

  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  await context.close();
});

test("owner2 (3 ads) sees the posting limit instead of Post New Ad", async ({ browser }) => {
  const { context, page } = await ownerPage(browser, OWNER2);
  await expect(rows(page)).toHaveCount(3);
  await expect(
    page.getByText("You have reached your ad posting limit (3 ads). Please delete an existing ad to post a new one."),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Post New Ad" })).toHaveCount(0);

  // A phone gets cards instead of the table.
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(myAdsTable(page)).toBeHidden();
  const cards = page.locator("li[data-ad-id]");
  await expect(cards).toHaveCount(3);
  await expect(cards.first().getByText(/^(Active|Expired|Pending|Hidden)$/)).toBeVisible();
  await expect(
    cards.first().getByText(/^Posted [A-Z][a-z]{2} \d{1,2}, \d{4} · \d+ days? left · \d+ views?$/),
  ).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  await context.close();
});

test("deleting another owner's listing answers 404 and changes nothing", async ({ browser, baseURL }) => {
  const owner2 = await ownerPage(browser, OWNER2);
  const target = await firstAd(owner2.page);
  const owner1 = await ownerPage(browser, OWNER1);

  const response = await owner1.page.request.post(`/dashboard/listings/${target.id}/delete`, {
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(404);
  const renew = await owner1.page.request.post(`/dashboard/listings/${target.id}/renew`, {
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(renew.status()).toBe(404);
  const page = await owner1.page.goto(`/dashboard/listings/${target.id}/delete`);
  expect(page?.status()).toBe(404);
  const editPage = await owner1.page.goto(`/dashboard/listings/${target.id}/edit`);
  expect(editPage?.status()).toBe(404);
  const edit = await owner1.page.request.post(`/dashboard/listings/${target.id}/edit`, {
    headers: { Origin: baseURL! },
    multipart: {
      title: "Hijacked",
      description: "x",
      price: "1",
      university: "University of Moratuwa",
      propertyType: "single",
      contactName: "X",
      contactPhone: "0771234567",
    },
    maxRedirects: 0,
  });
  expect(edit.status()).toBe(404);

  await owner2.page.reload();
  await expect(rows(owner2.page)).toHaveCount(3);
  await expect(owner2.page.getByRole("link", { name: target.title }).first()).toBeVisible();
  expect((await owner2.page.request.get(target.href)).status()).toBe(200);

  // A post from another site is refused too, even for the owner (React Router's own check answers 400 before ours).
  const foreign = await owner2.page.request.post(`/dashboard/listings/${target.id}/delete`, {
    headers: { Origin: "https://evil.example" },
    maxRedirects: 0,
  });
  expect([400, 403]).toContain(foreign.status());
  await owner2.page.reload();
  await expect(rows(owner2.page)).toHaveCount(3);
  await owner1.context.close();
  await owner2.context.close();
});

test("with JavaScript: confirm, then 'Ad deleted successfully!' and the listing is gone", async ({ browser }) => {
  const { context, page } = await ownerPage(browser, OWNER1);
  await page.waitForLoadState("networkidle");
  await expect(rows(page)).toHaveCount(2);
  const ad = await firstAd(page);

  let question = "";
  page.once("dialog", (dialog) => {
    question = dialog.message();
    void dialog.dismiss();
  });
  await rows(page)
    .first()
    .getByRole("link", { name: /^Delete / })
    .click();
  await expect.poll(() => question).toBe("Are you sure you want to delete this ad?");
  await expect(rows(page)).toHaveCount(2);
  await expect(page).toHaveURL(/\/dashboard$/);

  page.once("dialog", (dialog) => void dialog.accept());
  await rows(page)
    .first()
    .getByRole("link", { name: /^Delete / })
    .click();
  await expect(page.getByText("Ad deleted successfully!")).toBeVisible();
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByRole("link", { name: ad.title })).toHaveCount(0);
  await expect(page.getByText("Ad deleted successfully!")).toBeHidden({ timeout: 5_000 });

  const gone = await page.goto(ad.href);
  expect(gone?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Listing not found" })).toBeVisible();
  await context.close();
});

test("without JavaScript: a confirmation page, Cancel keeps the ad, Delete removes it", async ({ browser }) => {
  const { context, page } = await ownerPage(browser, OWNER1, false);
  await expect(rows(page)).toHaveCount(1);
  const ad = await firstAd(page);

  await rows(page)
    .first()
    .getByRole("link", { name: /^Delete / })
    .click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/listings/${ad.id}/delete$`));
  await expect(page.getByText("Are you sure you want to delete this ad?")).toBeVisible();
  await expect(page.getByText(ad.title)).toBeVisible();
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(rows(page)).toHaveCount(1);

  await rows(page)
    .first()
    .getByRole("link", { name: /^Delete / })
    .click();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\?deleted=1$/);
  await expect(page.getByText("Ad deleted successfully!")).toBeVisible();
  await expect(page.getByText("You have 0 ads.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Post Your First Ad" })).toHaveAttribute(
    "href",
    "/dashboard/listings/new",
  );
  expect((await page.request.get(ad.href)).status()).toBe(404);
  await context.close();
});
