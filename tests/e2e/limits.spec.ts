import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { field, newOwner, PASSWORD } from "./owners";

// Abuse limits and honeypots (ADR 007). Per-account limits run at production
// values here; per-IP ones are raised (playwright.config.ts), so only the
// login lockout per account is exercised in the browser.

const LOCKED = "Too many failed attempts. Please wait a few minutes before trying again.";

function outcome(page: Page) {
  return page.getByRole("main").locator('[role="alert"], [role="status"]').first();
}

async function tryLogin(page: Page, email: string, password: string) {
  await page.getByLabel("Email Address").fill(email);
  await field(page, "Password").fill(password);
  await page.getByRole("button", { name: "Log In" }).click();
}

test("5 wrong passwords lock the account: the 6th try is refused even with the right password, with and without JavaScript", async ({
  browser,
  page,
}) => {
  const { email } = await newOwner({ name: "Locked Owner" });

  await page.goto("/login");
  await page.waitForLoadState("networkidle");
  for (let attempt = 1; attempt <= 5; attempt++) {
    await tryLogin(page, email, `Wrong-pass${attempt}`);
    await expect(outcome(page)).toContainText("Invalid email or password");
  }
  await tryLogin(page, email, PASSWORD);
  await expect(outcome(page)).toContainText(LOCKED);
  await expect(page).toHaveURL(/\/login$/);
  expect((await new AxeBuilder({ page }).include("main").analyze()).violations).toEqual([]);

  // A plain form post (no JavaScript) from another browser gets the same answer and no session.
  const plain = await browser.newContext({ javaScriptEnabled: false });
  const noJs = await plain.newPage();
  await noJs.goto("/login");
  const answer = noJs.waitForResponse((response) => response.request().method() === "POST");
  await tryLogin(noJs, email.toUpperCase(), PASSWORD);
  expect((await answer).status()).toBe(429);
  expect(Number((await answer).headers()["retry-after"])).toBeGreaterThan(0);
  await expect(outcome(noJs)).toContainText(LOCKED);
  await expect(noJs).toHaveURL(/\/login$/);
  expect((await plain.cookies()).some((c) => c.name === "bodima.session_token")).toBe(false);
  await plain.close();
});

for (const form of [
  { path: "/signup", first: "Full Name", submit: "Create Account" },
  { path: "/contact", first: "Your name", submit: "Send message" },
]) {
  test(`${form.path}: the honeypot is invisible, hidden from screen readers and skipped by Tab`, async ({ page }) => {
    await page.goto(form.path);
    await page.waitForLoadState("networkidle");
    const honeypot = page.locator('input[name="website"]');
    await expect(honeypot).toHaveCount(1);
    await expect(honeypot).not.toBeInViewport();
    await expect(honeypot).toHaveAttribute("tabindex", "-1");
    await expect(honeypot).toHaveAttribute("autocomplete", "off");
    // Not in the accessibility tree, so no screen reader offers it.
    await expect(page.getByRole("textbox", { name: "Leave this field empty" })).toHaveCount(0);

    // Tab from the first field to the submit button never lands on it.
    await field(page, form.first).focus();
    const visited: string[] = [];
    for (let presses = 0; presses < 30; presses++) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => {
        const element = document.activeElement;
        return `${element?.getAttribute("name") ?? ""}|${element?.textContent?.trim() ?? ""}`;
      });
      visited.push(focused);
      if (focused.endsWith(`|${form.submit}`)) break;
    }
    expect(visited.at(-1)).toMatch(new RegExp(`\\|${form.submit}$`));
    expect(visited.filter((v) => v.startsWith("website|"))).toEqual([]);
  });
}

test("a filled honeypot on /contact still shows the usual success (without JavaScript)", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/contact");
  await page.getByLabel("Your name").fill("Robot");
  await page.getByLabel("Email address").fill("robot@example.com");
  await page.getByLabel("Subject").selectOption("Other");
  await page.getByRole("textbox", { name: /^Message/ }).fill("Buy cheap followers");
  await page.locator('input[name="website"]').fill("http://spam.example", { force: true });
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByText("Message Sent Successfully!")).toBeVisible();
  await context.close();
});

test("a filled honeypot on /signup creates no account", async ({ page }) => {
  const email = `bot-${Date.now().toString(36)}@example.lk`;
  await page.goto("/signup");
  await page.waitForLoadState("networkidle");
  await field(page, "Full Name").fill("Robot");
  await field(page, "Email Address").fill(email);
  await field(page, "Phone Number").fill("0771234567");
  await field(page, "Password").fill(PASSWORD);
  await field(page, "Confirm Password").fill(PASSWORD);
  await page.getByRole("checkbox", { name: /I agree to the/ }).check();
  await page.locator('input[name="website"]').fill("http://spam.example", { force: true });
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(outcome(page)).toContainText("Failed to create account. Please try again.");
  await expect(page).toHaveURL(/\/signup$/);
  // The address is still free: a person can sign up with it.
  await page.locator('input[name="website"]').fill("", { force: true });
  await field(page, "Password").fill(PASSWORD);
  await field(page, "Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
});

test("a 4th reset email for one address within the hour is refused with a clear message (without JavaScript)", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  // An address nobody has: the limit counts per address whether or not an account exists.
  const email = `nobody-${Date.now().toString(36)}@example.lk`;
  for (let request = 1; request <= 3; request++) {
    await page.goto("/login");
    await page.getByLabel("Email Address").fill(email);
    await page.getByRole("button", { name: "Forgot password?" }).click();
    await expect(outcome(page)).toContainText("Password reset email sent! Please check your inbox.");
  }
  await page.goto("/login");
  await page.getByLabel("Email Address").fill(email);
  await page.getByRole("button", { name: "Forgot password?" }).click();
  await expect(outcome(page)).toContainText(
    "Too many reset emails for this address. Please wait an hour and try again.",
  );
  await context.close();
});
