import { type Browser, expect, type Page, test } from "@playwright/test";
import { field, logIn, newOwner, openResetLink, PASSWORD, signedInOwner } from "./owners";
import { withServerDb } from "./server-db";

// Sessions (ADR 019): 30 days from sign-in at most, the refreshed
// cookie reaches the browser, Change password and Sign out of all other
// devices in Settings, common passwords refused everywhere a password is chosen.

const DAY = 24 * 60 * 60 * 1000;
const COMMON = "This password is one of the most common passwords and is easy to guess. Please choose a different one.";

type SessionRow = { id: string; createdAt: string; expiresAt: string };

function sessionsOf(email: string): SessionRow[] {
  return withServerDb(
    (db) =>
      db
        .prepare(
          "SELECT s.id, s.createdAt, s.expiresAt FROM sessions s JOIN users u ON u.id = s.userId WHERE u.email = ?",
        )
        .all(email) as SessionRow[],
  );
}

/** Moves every session of the account: signed in `createdAt` ago, expiring `expiresIn` from now. */
function ageSessions(email: string, times: { signedInAgo: number; expiresIn: number }) {
  const now = Date.now();
  withServerDb((db) => {
    const { changes } = db
      .prepare(
        "UPDATE sessions SET createdAt = ?, updatedAt = ?, expiresAt = ? WHERE userId = (SELECT id FROM users WHERE email = ?)",
      )
      .run(
        new Date(now - times.signedInAgo).toISOString(),
        new Date(now - 60_000).toISOString(),
        new Date(now + times.expiresIn).toISOString(),
        email,
      );
    expect(changes).toBeGreaterThan(0);
  });
}

function setCookies(headers: { name: string; value: string }[]) {
  return headers.filter((h) => h.name.toLowerCase() === "set-cookie").map((h) => h.value);
}

async function secondDevice(browser: Browser, email: string, password = PASSWORD) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await logIn(page, email, password);
  return { context, page };
}

async function expectSignedOut(page: Page) {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
}

test("a session signed in 31 days ago is refused even though it was used (and refreshed) every day", async ({
  page,
}) => {
  const { email } = await signedInOwner(page, { name: "Old Session" });
  // Refreshed yesterday: better-auth's own expiry is still 29 days away.
  ageSessions(email, { signedInAgo: 31 * DAY, expiresIn: 29 * DAY });
  await expectSignedOut(page);
  expect(sessionsOf(email)).toEqual([]);
});

test("a session 29 days after sign-in still works", async ({ page }) => {
  const { email } = await signedInOwner(page, { name: "Recent Session" });
  ageSessions(email, { signedInAgo: 29 * DAY, expiresIn: 29 * DAY });
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("a refreshed session's new cookie is sent to the browser, and the refresh stops at 30 days from sign-in", async ({
  page,
}) => {
  const { email } = await signedInOwner(page, { name: "Refreshed Session" });
  // Signed in 2 days ago, last refreshed a few days before that: due for a refresh (once a day).
  ageSessions(email, { signedInAgo: 2 * DAY, expiresIn: 27 * DAY });
  const before = sessionsOf(email)[0]!;

  const response = await page.request.get("/dashboard", { maxRedirects: 0 });
  expect(response.status()).toBe(200);
  const cookies = setCookies(response.headersArray());
  expect(cookies.some((c) => /^bodima\.session_token=/.test(c) && /Max-Age=\d+/i.test(c) && /HttpOnly/i.test(c))).toBe(
    true,
  );
  expect(response.headers()["cache-control"]).toMatch(/no-store/);

  const after = sessionsOf(email)[0]!;
  expect(Date.parse(after.expiresAt)).toBeGreaterThan(Date.parse(before.expiresAt) + 12 * 60 * 60 * 1000);
  // Never past 30 days from sign-in.
  expect(Date.parse(after.expiresAt)).toBeLessThanOrEqual(Date.parse(after.createdAt) + 30 * DAY + 1000);

  // The browser keeps the refreshed cookie and stays signed in.
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("Change password: wrong current password, common and mismatched new ones are refused; success keeps this device and signs out the others", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const { email } = await signedInOwner(page, { name: "Changing Owner" });
  const other = await secondDevice(browser, email);

  await page.goto("/dashboard/settings");
  await page.waitForLoadState("networkidle");
  const form = page.locator("form", { has: page.getByRole("button", { name: "Change Password" }) });
  const submit = () => form.getByRole("button", { name: "Change Password" }).click();

  await form.getByLabel("Current Password").fill("Wrong-pass99");
  await form.getByLabel("New Password", { exact: true }).fill("Brand-new-pass2");
  await form.getByLabel("Confirm New Password").fill("Brand-new-pass2");
  await submit();
  await expect(page.getByRole("alert").filter({ hasText: "Your current password is not correct." })).toBeVisible();

  await form.getByLabel("Current Password").fill(PASSWORD);
  await form.getByLabel("New Password", { exact: true }).fill("Password123");
  await form.getByLabel("Confirm New Password").fill("Password123");
  await submit();
  await expect(page.getByRole("alert").filter({ hasText: COMMON })).toBeVisible();

  await form.getByLabel("New Password", { exact: true }).fill("Brand-new-pass2");
  await form.getByLabel("Confirm New Password").fill("Brand-new-pass3");
  await submit();
  await expect(form.getByText("Passwords do not match")).toBeVisible();

  // Nothing changed so far: the other device is still signed in.
  await other.page.goto("/dashboard");
  await expect(other.page).toHaveURL(/\/dashboard$/);

  await form.getByLabel("New Password", { exact: true }).fill("Brand-new-pass2");
  await form.getByLabel("Confirm New Password").fill("Brand-new-pass2");
  await submit();
  await expect(page.getByText("Password changed", { exact: true })).toBeVisible();
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expectSignedOut(other.page);
  await other.context.close();

  // The new password is the one that works.
  const fresh = await secondDevice(browser, email, "Brand-new-pass2");
  await fresh.context.close();
});

test("without JavaScript: Change password and Sign out of all other devices work as plain form posts", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const page = await noJs.newPage();
  const { email } = await newOwner({ name: "No Script Owner" });
  await page.goto("/login");
  await page.getByLabel("Email Address").fill(email);
  await field(page, "Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log In" }).click();
  await page.goto("/dashboard/settings");
  await expect(page).toHaveURL(/\/dashboard\/settings$/);

  const other = await secondDevice(browser, email);
  await page.getByRole("button", { name: "Sign out of all other devices" }).click();
  await expect(page.getByText("Signed out of all other devices")).toBeVisible();
  await expectSignedOut(other.page);
  await other.context.close();

  const another = await secondDevice(browser, email);
  const form = page.locator("form", { has: page.getByRole("button", { name: "Change Password" }) });
  await form.getByLabel("Current Password").fill("Wrong-pass99");
  await form.getByLabel("New Password", { exact: true }).fill("Brand-new-pass2");
  await form.getByLabel("Confirm New Password").fill("Brand-new-pass2");
  await form.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByText("Your current password is not correct.").first()).toBeVisible();

  await form.getByLabel("Current Password").fill(PASSWORD);
  await form.getByLabel("New Password", { exact: true }).fill("Brand-new-pass2");
  await form.getByLabel("Confirm New Password").fill("Brand-new-pass2");
  await form.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByText("Password changed", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/settings\?done=password$/);
  await expectSignedOut(another.page);
  await another.context.close();
  await noJs.close();
});

test("Settings' password forms refuse a post from another site", async ({ page }) => {
  await signedInOwner(page, { name: "Csrf Owner" });
  for (const form of [
    { intent: "sessions" } as Record<string, string>,
    { intent: "password", currentPassword: PASSWORD, password: "Brand-new-pass2", confirmPassword: "Brand-new-pass2" },
  ]) {
    const response = await page.request.post("/dashboard/settings", {
      form,
      headers: { origin: "https://evil.example" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
  }
});

test("a common password is refused at sign-up with a clear message", async ({ page }) => {
  await page.goto("/signup");
  await page.waitForLoadState("networkidle");
  await field(page, "Full Name").fill("Common Choice");
  await field(page, "Email Address").fill(`common-${Date.now()}@example.lk`);
  await field(page, "Phone Number").fill("0771234567");
  await field(page, "Password").fill("Password123");
  await field(page, "Confirm Password").fill("Password123");
  await page.getByRole("checkbox", { name: /I agree to the/ }).check();
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText(COMMON).first()).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
});

test("a common password is refused at reset with a clear message", async ({ page }) => {
  const { email } = await signedInOwner(page, { name: "Common Reset" });
  await page.context().clearCookies();
  await openResetLink(page, email);
  await page.getByLabel("New Password", { exact: true }).fill("Qwerty123");
  await page.getByLabel("Confirm New Password").fill("Qwerty123");
  await page.getByRole("button", { name: "Set New Password" }).click();
  await expect(page.getByText(COMMON).first()).toBeVisible();
  // The link still works for a good password.
  await page.getByLabel("New Password", { exact: true }).fill("Brand-new-pass2");
  await page.getByLabel("Confirm New Password").fill("Brand-new-pass2");
  await page.getByRole("button", { name: "Set New Password" }).click();
  await expect(page.getByText("Your password has been changed.")).toBeVisible();
});
