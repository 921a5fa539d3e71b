import { expect, test } from "@playwright/test";

test("the home page renders on the server", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.locator("header")).toContainText("Bodima");
});
