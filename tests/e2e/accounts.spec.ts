import AxeBuilder from "@axe-core/playwright";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { readMails } from "./mail";
import { confirmEmail, newOwner, openResetLink, signedInOwner } from "./owners";

// Owner accounts (ADR 006): sign up, log in/out, remember me, protected
// dashboard, profile settings, password reset, other tabs.

const DEMO = { email: "owner1@demo.bodima.lk", password: "Bodima-demo-2026", name: "Nimal Perera" };
const PASSWORD = "Secret-pass1";

/** The form's outcome banner: errors are alerts, validation hints a status. */
function outcome(page: Page) {
  return page.getByRole("main").locator('[role="alert"], [role="status"]').first();
}

function uniqueEmail(tag: string) {
  return `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.lk`;
}

const validSignup = () => ({
  "Full Name": "Test Owner",
  "Email Address": uniqueEmail("signup"),
  "Phone Number": "0771234567",
  Password: PASSWORD,
  "Confirm Password": PASSWORD,
});

/** The sign-up rules in the product specification's order: [field to break, bad value, message]. */
const SIGNUP_RULES: Array<[string, string, string]> = [
  ["Full Name", "A", "Name must be at least 2 characters long"],
  ["Email Address", "not-an-email", "Please enter a valid email address"],
  ["Phone Number", "07712", "Please enter a valid 10-digit phone number"],
  ["Password", "Ab1", "Password must be at least 8 characters long"],
  ["Password", "alllowercase1", "Password must contain uppercase, lowercase, and number characters"],
  ["Confirm Password", "Other-pass1", "Passwords do not match"],
  ["terms", "", "Please agree to the Terms and Conditions"],
];

/** A field by its label, which may end in "(required)". */
function field(page: Page, label: string) {
  return page.getByLabel(new RegExp(`^${label}\\s*(\\(required\\))?$`));
}

async function fillSignup(page: Page, values: Record<string, string>, agree: boolean) {
  for (const [label, value] of Object.entries(values)) {
    await field(page, label).fill(value);
  }
  if (agree) await page.getByRole("checkbox", { name: /I agree to the/ }).check();
}

async function signUp(page: Page, name = "Test Owner") {
  const values = { ...validSignup(), "Full Name": name };
  await page.goto("/signup");
  await fillSignup(page, values, true);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
  return values["Email Address"];
}

async function logIn(page: Page, email: string, password: string, path = "/login") {
  await page.goto(path);
  await page.getByLabel("Email Address").fill(email);
  await field(page, "Password").fill(password);
  await page.getByRole("button", { name: "Log In" }).click();
}

async function sessionCookie(context: BrowserContext) {
  return (await context.cookies()).find((c) => c.name === "bodima.session_token");
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("sign-up: the server checks each rule in the spec's order, with its message", async ({ page }) => {
    for (const [index, [field, bad, message]] of SIGNUP_RULES.entries()) {
      await page.goto("/signup");
      const values = validSignup();
      if (field !== "terms") values[field as keyof typeof values] = bad;
      if (field === "Password") values["Confirm Password"] = bad;
      await fillSignup(page, values, field !== "terms");
      await page.getByRole("button", { name: "Create Account" }).click();
      const banner = outcome(page);
      await expect(banner, `rule ${index + 1}`).toContainText(message);
      await expect(banner).toContainText("Attempt 1 - Please try again");
    }
  });

  test("sign-up: an empty form shows the first rule on top and every field's error", async ({ page }) => {
    await page.goto("/signup");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(outcome(page)).toContainText("Name must be at least 2 characters long");
    await expect(field(page, "Full Name")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Please enter a valid 10-digit phone number")).toBeVisible();
    await expect(page.getByText("Please agree to the Terms and Conditions")).toBeVisible();
  });

  test("sign-up success is a plain redirect to the dashboard", async ({ page }) => {
    await signUp(page, "Plain Redirect");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome back, Plain Redirect!");
  });

  test("remember me: checked keeps the cookie 30 days; unchecked ends it with the browser", async ({ browser }) => {
    const remembered = await browser.newContext({ javaScriptEnabled: false });
    const page = await remembered.newPage();
    await logIn(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    const cookie = await sessionCookie(remembered);
    expect(cookie?.httpOnly).toBe(true);
    const days = (cookie!.expires - Date.now() / 1000) / 86400;
    expect(days).toBeGreaterThan(29);
    expect(days).toBeLessThanOrEqual(30.01);
    await remembered.close();

    const forgetful = await browser.newContext({ javaScriptEnabled: false });
    const page2 = await forgetful.newPage();
    await page2.goto("/login");
    await page2.getByLabel("Remember me").uncheck();
    await page2.getByLabel("Email Address").fill(DEMO.email);
    await field(page2, "Password").fill(DEMO.password);
    await page2.getByRole("button", { name: "Log In" }).click();
    await expect(page2).toHaveURL(/\/dashboard$/);
    expect((await sessionCookie(forgetful))?.expires).toBe(-1);
    await forgetful.close();
  });

  test("log in needs both fields; forgot password needs the email first", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(outcome(page)).toContainText("Please fill in all fields");
    await page.getByRole("button", { name: "Forgot password?" }).click();
    await expect(outcome(page)).toContainText("Please enter your email address first");
  });
});

test("sign-up: the rules run live in the browser, and the checklist follows the password", async ({ page }) => {
  await page.goto("/signup");
  await page.waitForLoadState("networkidle");
  const requests: string[] = [];
  page.on("request", (r) => r.method() === "POST" && requests.push(r.url()));
  for (const [index, [field, bad, message]] of SIGNUP_RULES.entries()) {
    await page.reload();
    await page.waitForLoadState("networkidle");
    const values = validSignup();
    if (field !== "terms") values[field as keyof typeof values] = bad;
    if (field === "Password") values["Confirm Password"] = bad;
    await fillSignup(page, values, field !== "terms");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(outcome(page), `rule ${index + 1}`).toContainText(message);
  }
  expect(requests).toEqual([]);

  const checklist = page.getByRole("list", { name: "Password requirements" });
  await field(page, "Password").fill("");
  await expect(checklist.locator('[data-met="true"]')).toHaveCount(0);
  await field(page, "Password").fill("abcdefgh");
  await expect(checklist.getByText("At least 8 characters")).toHaveAttribute("data-met", "true");
  await expect(checklist.getByText("One uppercase letter")).toHaveAttribute("data-met", "false");
  await field(page, "Password").fill("Abcdefg1");
  await expect(checklist.locator('[data-met="true"]')).toHaveCount(4);
});

test("sign-up success: message, then the dashboard greets by name", async ({ page }) => {
  await page.goto("/signup");
  await page.waitForLoadState("networkidle");
  await fillSignup(page, { ...validSignup(), "Full Name": "Amara Jayasinghe" }, true);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Account created successfully! Redirecting to dashboard...")).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome back, Amara Jayasinghe!");
  await expect(page.getByText(/You have 0 ads/)).toBeVisible();
});

test("signing up twice with one email says so", async ({ browser }) => {
  const first = await browser.newPage();
  const email = await signUp(first);
  await first.close();
  const page = await browser.newPage();
  await page.goto("/signup");
  await page.waitForLoadState("networkidle");
  await fillSignup(page, { ...validSignup(), "Email Address": email }, true);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(outcome(page)).toContainText(
    "An account with this email already exists. Please try logging in instead.",
  );
  await page.close();
});

test("log in with the demo owner, then log out", async ({ page }) => {
  await page.goto("/login");
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Email Address").fill(DEMO.email);
  await field(page, "Password").fill(DEMO.password);
  await page.getByRole("button", { name: "Show password" }).click();
  await expect(field(page, "Password")).toHaveAttribute("type", "text");
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page.getByText("Login successful! Redirecting...")).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Welcome back, ${DEMO.name}!`);

  await page.getByRole("banner").locator("summary", { hasText: DEMO.name }).first().click();
  await page.getByRole("banner").getByRole("button", { name: "Logout" }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("banner").getByRole("link", { name: "Log in" }).first()).toBeVisible();
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
});

test("wrong password: friendly message and the attempt counter", async ({ page }) => {
  // A fresh account: failed logins count against the account (5 per 15 minutes), and the demo owners are shared.
  const { email } = await newOwner({ name: "Wrong Password" });
  await page.goto("/login");
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Email Address").fill(email);
  for (const attempt of [1, 2, 3]) {
    await field(page, "Password").fill("Wrong-pass1");
    await page.getByRole("button", { name: "Log In" }).click();
    const banner = outcome(page);
    await expect(banner).toContainText("Invalid email or password. Please check your credentials and try again.");
    await expect(banner).toContainText(
      attempt < 3
        ? `Attempt ${attempt} - Please try again`
        : "Multiple attempts failed. Please check your information and try again.",
    );
  }
});

test("/dashboard needs a session and comes back after login", async ({ page }) => {
  await page.goto("/dashboard/settings");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard%2Fsettings$/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Email Address").fill(DEMO.email);
  await field(page, "Password").fill(DEMO.password);
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Welcome back, ${DEMO.name}!`);
});

test("settings: name and phone are saved; the email cannot be changed", async ({ page }) => {
  const { email } = await signedInOwner(page, { name: "Before Change" });
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Account Settings" })).toBeVisible();
  const emailField = page.getByLabel("Email Address");
  await expect(emailField).toHaveValue(email);
  await expect(emailField).toHaveAttribute("readonly", "");
  await expect(page.getByText("Email cannot be changed. Contact support if needed.")).toBeVisible();

  await field(page, "Full Name").fill("   ");
  await expect(page.getByRole("button", { name: "Save Changes" })).toBeDisabled();
  await field(page, "Full Name").fill("After Change");
  await page.getByLabel("Phone Number").fill("0719876543");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Changes Saved Successfully!")).toBeVisible();
  await expect(page.getByText("Your profile has been updated.")).toBeVisible();
  await expect(page.getByText("Changes Saved Successfully!")).toBeHidden({ timeout: 5_000 });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome back, After Change!");

  await page.reload();
  await expect(field(page, "Full Name")).toHaveValue("After Change");
  await expect(page.getByLabel("Phone Number")).toHaveValue("0719876543");
  await expect(page.getByLabel("Email Address")).toHaveValue(email);
});

test("password reset: same answer for unknown emails; the link works once and ends other sessions", async ({
  browser,
}) => {
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  const { email } = await signedInOwner(owner, { name: "Reset Owner" });

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/login");
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Email Address").fill(uniqueEmail("nobody"));
  await page.getByRole("button", { name: "Forgot password?" }).click();
  await expect(page.getByText("Password reset email sent! Please check your inbox.")).toBeVisible();

  const link = await openResetLink(page, email);
  await page.getByLabel("New Password", { exact: true }).fill("short");
  await page.getByLabel("Confirm New Password").fill("short");
  await page.getByRole("button", { name: "Set New Password" }).click();
  await expect(outcome(page)).toContainText("Password must be at least 8 characters long");
  await page.getByLabel("New Password", { exact: true }).fill("Brand-new-pass2");
  await page.getByLabel("Confirm New Password").fill("Brand-new-pass2");
  await page.getByRole("button", { name: "Set New Password" }).click();
  await expect(page.getByText("Your password has been changed.")).toBeVisible();

  await page.goto(link);
  await page.waitForLoadState("networkidle");
  await page.getByLabel("New Password", { exact: true }).fill("Another-pass3");
  await page.getByLabel("Confirm New Password").fill("Another-pass3");
  await page.getByRole("button", { name: "Set New Password" }).click();
  await expect(outcome(page)).toContainText("Invalid link. Please request a new one.");

  await owner.goto("/dashboard");
  await expect(owner).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
  await logIn(page, email, "Brand-new-pass2");
  await expect(page).toHaveURL(/\/dashboard$/);
  await ownerContext.close();
  await context.close();
});

test("signing in and out shows in the other open tabs", async ({ context }) => {
  const other = await context.newPage();
  await other.goto("/about");
  await other.waitForLoadState("networkidle");
  const page = await context.newPage();
  await logIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(other.getByRole("banner").getByText(DEMO.name).first()).toBeVisible({ timeout: 5_000 });

  await page.getByRole("banner").locator("summary", { hasText: DEMO.name }).first().click();
  await page.getByRole("banner").getByRole("button", { name: "Logout" }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await expect(other.getByRole("banner").getByRole("link", { name: "Log in" }).first()).toBeVisible({ timeout: 5_000 });
});

test("account pages have no serious accessibility problems", async ({ page }) => {
  test.slow(); // axe runs over six pages and a sign-up, each after the network is idle
  const check = async (path: string) => {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(
      violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${path}: ${v.id}`),
    ).toEqual([]);
  };
  await check("/login");
  await check("/signup");
  await check("/reset-password?token=abcdefghijkl");
  await page.goto("/signup");
  await page.getByRole("button", { name: "Create Account" }).click();
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  await signUp(page, "Axe Owner");
  await check("/dashboard");
  await check("/dashboard/settings");
});

test("sign-up: the address is confirmed by the emailed link, the banner goes (without JavaScript)", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const email = await signUp(page, "Confirm Owner");
  const banner = page.getByTestId("confirm-email-banner");
  await expect(banner).toContainText("Please confirm your email address");
  await expect(banner).toContainText(email);
  // Posting waits for the confirmation (ADR 066), and says so.
  await page.goto("/dashboard/listings/new");
  await expect(page.getByText("Confirm your email address first")).toBeVisible();
  // 'Send the link again' is a plain form.
  await page.goto("/dashboard");
  await page.getByRole("button", { name: "Send the link again" }).click();
  await expect(page).toHaveURL(/\/dashboard\?confirmEmail=sent$/);
  await expect(page.getByText(`We sent a new link to ${email}`)).toBeVisible();
  await expect.poll(() => readMails({ to: email, subject: /Confirm your email address/ }).length).toBe(2);
  await confirmEmail(page, email);
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Welcome back, Confirm Owner!" })).toBeVisible();
  await expect(page.getByTestId("confirm-email-banner")).toHaveCount(0);
  await context.close();
});
