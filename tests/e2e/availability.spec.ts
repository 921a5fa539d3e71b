import { expect, test } from "@playwright/test";
import { adRow, postListing, signUp, uniqueWord } from "./owners";

// Issue 13, point 4, in the browser: the listing page says when availability was
// confirmed; 'No longer available' in My Ads takes the ad out of browse at once
// and its page says so; 'Still available' brings it back. With and without JavaScript.

test.describe.configure({ timeout: 60_000 });

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test("'No longer available' and 'Still available' from My Ads", async ({ page: poster, browser }) => {
      // Posting needs the photo picker's script; the rest is done as the test says.
      await signUp(poster);
      const word = uniqueWord();
      const title = `Annex ${word}`;
      await postListing(poster, title);
      const context = await browser.newContext({
        javaScriptEnabled,
        storageState: await poster.context().storageState(),
      });
      const page = await context.newPage();
      const row = adRow(page, title);

      await page.goto(`/browse?search=${word}`);
      await page.getByRole("link", { name: title }).first().click();
      await expect(page.getByTestId("listing-confirmed")).toHaveText("Availability confirmed today");
      const listingUrl = page.url();

      await page.goto("/dashboard");
      await row.getByRole("button", { name: `${title} is no longer available: take it out of search` }).click();
      await expect(page.getByText("Your ad no longer shows in search.")).toBeVisible();
      await expect(row.getByText("No longer available", { exact: true })).toBeVisible();

      await page.goto(`/browse?search=${word}`);
      await expect(page.getByRole("link", { name: title })).toHaveCount(0);
      await page.goto(listingUrl);
      await expect(page.getByTestId("listing-let")).toContainText("No longer available");
      await expect(page.getByRole("button", { name: /^Save/ })).toHaveCount(0);

      await page.goto("/dashboard");
      await row.getByRole("button", { name: `${title} is still available: keep it up for 30 more days` }).click();
      await expect(page.getByText("Thank you: your ad stays up for 30 more days.")).toBeVisible();
      await expect(row.getByText("Active", { exact: true })).toBeVisible();
      await page.goto(`/browse?search=${word}`);
      await expect(page.getByRole("link", { name: title }).first()).toBeVisible();
      await page.goto(listingUrl);
      await expect(page.getByTestId("listing-let")).toHaveCount(0);
      await context.close();
    });
  });
}
