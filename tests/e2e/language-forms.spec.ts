import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { signedInOwner, uniqueWord } from "./owners";

// Validation messages come in the reader's language (docs/i18n.md), from the server
// without JavaScript and from the browser with it.

function messages(language: string, file: string, pathInFile: string[]): Record<string, string> {
  let node = JSON.parse(fs.readFileSync(path.resolve("app/i18n", language, file), "utf8"));
  for (const key of pathInFile) node = node[key];
  return node as Record<string, string>;
}

async function fillBadSignUp(page: Page) {
  await page.locator("input[name='name']").fill("A");
  await page.locator("input[name='email']").fill("not-an-email");
  await page.locator("input[name='phone']").fill("12");
  await page.locator("input[name='password']").fill("short");
  await page.locator("input[name='confirmPassword']").fill("other");
  await page.locator("main form button[type='submit']").click();
}

async function expectSignUpErrors(page: Page, language: string) {
  const own = messages(language, "accounts.json", ["signup", "errors"]);
  const english = messages("en", "accounts.json", ["signup", "errors"]);
  for (const key of ["name", "email", "phone"]) {
    await expect(page.getByText(own[key]).first(), key).toBeVisible();
    await expect(page.getByText(english[key]), key).toHaveCount(0);
  }
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("sign-up errors in Tamil come from the server in Tamil, and keep what was typed", async ({ page }) => {
    await page.goto("/ta/signup");
    await fillBadSignUp(page);
    await expect(page).toHaveURL(/\/ta\/signup$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "ta");
    await expectSignUpErrors(page, "ta");
    await expect(page.locator("input[name='email']")).toHaveValue("not-an-email");
  });
});

test("sign-up errors in Sinhala come from the browser in Sinhala", async ({ page }) => {
  await page.goto("/si/signup");
  await page.locator('button[aria-controls="site-menu"]').waitFor({ state: "attached" });
  await fillBadSignUp(page);
  await expectSignUpErrors(page, "si");
});

test("the listing form's errors in Sinhala, from the server without JavaScript", async ({ browser, page }) => {
  await signedInOwner(page, { name: `Owner ${uniqueWord()}` });
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const noJs = await context.newPage();
  // The account prefers English: Sinhala is chosen with the switcher's link, which this browser remembers (ADR 036).
  await noJs.goto("/language/si?next=%2Fdashboard%2Flistings%2Fnew");
  await expect(noJs).toHaveURL(/\/si\/dashboard\/listings\/new$/);
  await expect(noJs.locator("html")).toHaveAttribute("lang", "si");
  await noJs.locator("textarea[name='description']").fill("A room near the campus.");
  await noJs.locator("main form[method='post'] button[type='submit']").last().click();
  await expect(noJs).toHaveURL(/\/si\/dashboard\/listings\/new/);
  const own = messages("si", "listing-form.json", ["errors"]);
  const english = messages("en", "listing-form.json", ["errors"]);
  await expect(noJs.getByRole("alert").first()).toContainText(own.required);
  await expect(noJs.getByText(english.required)).toHaveCount(0);
  await expect(noJs.locator("textarea[name='description']")).toHaveValue("A room near the campus.");
  await context.close();
});

test("a refusal before any page renders still speaks the page's language", async ({ request }) => {
  const own = messages("ta", "security.json", ["filesNotAccepted"]);
  const response = await request.post("/ta/contact", { multipart: { message: "hello" } });
  expect(response.status()).toBe(415);
  const html = await response.text();
  expect(html).toContain('<html lang="ta">');
  expect(html).toContain(own.title);
  expect(html).toContain('href="/ta"');
});
