import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { adRow, postListing, signedInOwner, uniqueWord } from "./owners";

// Renewing an expired ad (ADR 009): 30 days after posting it is
// expired, gone from /browse, and Renew gives it another 30 days.

/**
 * Moves a listing's expiry into the past in the browser-test server's own
 * SQLite file (app/db/db.server.ts: DATA_DIR/bodima.sqlite). This stands in
 * for 30 days passing: the app has no clock to wind forward.
 */
function expireListing(id: string) {
  const db = new DatabaseSync(path.join(process.env.E2E_DATA_DIR!, "bodima.sqlite"));
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    const past = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    const { changes } = db.prepare("UPDATE listings SET expiresAt = ? WHERE id = ?").run(past, Number(id));
    expect(changes).toBe(1);
  } finally {
    db.close();
  }
}

test("an expired ad shows Expired with Renew; Renew makes it Active for 30 days and it is on /browse again", async ({
  page,
}) => {
  await signedInOwner(page);
  const word = uniqueWord();
  const title = `Quiet room ${word}`;
  await postListing(page, title);
  const row = adRow(page, title);
  await expect(row.getByText("30 days left")).toBeVisible();
  await expect(row.getByRole("button", { name: /^Renew / })).toHaveCount(0);
  const id = (await row.getAttribute("data-ad-id"))!;

  expireListing(id);
  await page.reload();
  await expect(row.getByText("Expired", { exact: true })).toBeVisible();
  await expect(row.getByText("0 days left")).toBeVisible();
  const renew = row.getByRole("button", { name: `Renew ${title} for 30 days` });
  await expect(renew).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

  const publicHref = (await row.getByRole("link", { name: title, exact: true }).getAttribute("href"))!;
  const expiredPage = await page.request.get(publicHref);
  expect(await expiredPage.text()).toContain("This listing has expired");
  await page.goto(`/browse?search=${word}`);
  await expect(page.getByText("No listings found")).toBeVisible();

  await page.goto("/dashboard");
  await row.getByRole("button", { name: `Renew ${title} for 30 days` }).click();
  await expect(page.getByText("Ad renewed for 30 days.")).toBeVisible();
  await expect(row.getByText("Active", { exact: true })).toBeVisible();
  await expect(row.getByText("30 days left")).toBeVisible();
  await expect(row.getByRole("button", { name: /^Renew / })).toHaveCount(0);

  await page.goto(`/browse?search=${word}`);
  await expect(page.locator(`a[href="${publicHref}"]`).first()).toBeVisible();
});
