import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { insertOwner, insertSession, OWNER_PASSWORD, type Owner, type OwnerOptions } from "../owner-session";
import { type ReceivedMail, waitForMail } from "./mail";
import { serverSessionSecret, withProjectDatabase } from "./server-db";

// Shared steps for browser tests that need a landlord of their own: a fresh
// account per test, so tests never depend on each other or on demo data.

export const PASSWORD = OWNER_PASSWORD;

/**
 * A confirmed owner who is signed in in the page's browser context (and its other pages): the
 * account, its session and the signed session cookie are written straight into the test server's
 * database and the context, as sign-up, the emailed link and a login would leave them, in
 * milliseconds. The page stays where it is. Log in again with `owner.password` (PASSWORD).
 */
export async function signedInOwner(page: Page, options: OwnerOptions = {}): Promise<Owner> {
  const secret = serverSessionSecret();
  const { owner, cookie } = await withProjectDatabase(async (db) => {
    const owner = await insertOwner(db, options);
    return { owner, cookie: await insertSession(db, owner.id, secret) };
  });
  await page.context().addCookies([
    {
      name: cookie.name,
      value: cookie.value,
      url: test.info().project.use.baseURL!,
      expires: Math.floor(cookie.expires.getTime() / 1000),
      httpOnly: true,
      sameSite: "Lax",
    },
  ]);
  return owner;
}

/** A confirmed owner account with no session anywhere: for tests that log in themselves. */
export function newOwner(options: OwnerOptions = {}): Promise<Owner> {
  return withProjectDatabase((db) => insertOwner(db, options));
}

export const uniqueWord = () => `zq${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A real JPEG of one colour, as a phone would send it. */
export async function photo(colour: { r: number; g: number; b: number }, name: string) {
  const buffer = await sharp({ create: { width: 640, height: 480, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
  return { name, mimeType: "image/jpeg", buffer };
}

/** A form control by its visible label (required fields carry "(required)"). */
export function field(page: Page, label: string) {
  return page.getByLabel(new RegExp(`^${label}\\s*(\\(required\\))?$`));
}

/**
 * Fills and sends the sign-up form, landing on the dashboard with the address not yet confirmed: for
 * tests about sign-up itself (confirm with `confirmEmail`); any other test takes `signedInOwner`.
 */
export async function submitSignUp(page: Page, name = "Poster Owner"): Promise<string> {
  const email = `poster-${uniqueWord()}@example.lk`;
  await page.goto("/signup");
  await field(page, "Full Name").fill(name);
  await field(page, "Email Address").fill(email);
  await field(page, "Phone Number").fill("0771234567");
  await field(page, "Password").fill(PASSWORD);
  await field(page, "Confirm Password").fill(PASSWORD);
  await page.getByRole("checkbox", { name: /I agree to the/ }).check();
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
  return email;
}

/** The subject of the email that confirms a new account's address (ADR 066). */
export const CONFIRM_EMAIL_SUBJECT = /Confirm your email address/;

/** Confirms the address through its emailed link: from the shared SMTP sink, or the `mail` given. */
export async function confirmEmail(page: Page, email: string, mail?: ReceivedMail) {
  mail ??= await waitForMail(email, CONFIRM_EMAIL_SUBJECT);
  const link = /https?:\/\/\S+\/confirm-email\?token=[\w.-]+/.exec(mail.text)?.[0];
  expect(link).toBeTruthy();
  await page.goto(link!);
  await page.getByRole("button", { name: "Confirm my address" }).click();
  await expect(page.getByTestId("email-confirmed")).toBeVisible();
}

export async function logIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email Address").fill(email);
  await field(page, "Password").fill(password);
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
}

/** Fills the post/edit form's text fields (photos are the caller's). */
export async function fillListing(page: Page, title: string) {
  await field(page, "Title").fill(title);
  // Under 12 words, so the near-duplicate check never compares it (ADR 079): every test owner posts these words.
  await field(page, "Description").fill("A quiet single room with a study table near the gate.");
  await field(page, "Monthly rent \\(LKR\\)").fill("17500");
  await field(page, "Key money \\(LKR\\)").fill("35000");
  await field(page, "University").selectOption("University of Moratuwa");
  await page.getByRole("checkbox", { name: "WiFi" }).check();
  await field(page, "Address or directions").fill("Katubedda junction");
}

/** Posts a listing with one photo through the post dialog (JavaScript on) and returns to My Ads. */
export async function postListing(page: Page, title: string) {
  await page.goto("/dashboard/listings/new");
  await fillListing(page, title);
  await field(page, "Photos").setInputFiles([await photo({ r: 120, g: 60, b: 160 }, "room.jpg")]);
  const submit = page.getByRole("button", { name: "Post listing" });
  // Enabled again once the picker's upload has finished.
  await expect(submit).toBeEnabled({ timeout: 15_000 });
  await submit.click();
  await expect(page.getByText("Ad posted successfully! Your listing is now live.")).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 5_000 });
}

/** The My Ads table row of a listing (the desktop viewport shows the table, not the cards). */
export function adRow(page: Page, title: string) {
  return page.locator("table tbody tr").filter({ has: page.getByRole("link", { name: title, exact: true }) });
}

/** Asks for a password reset from the login page, as a person would, and opens the emailed link (returned). */
export async function openResetLink(page: Page, email: string): Promise<string> {
  await page.goto("/login");
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Email Address").fill(email);
  await page.getByRole("button", { name: "Forgot password?" }).click();
  await expect(page.getByText("Password reset email sent! Please check your inbox.")).toBeVisible();
  const mail = await waitForMail(email, /Reset your .* password/);
  const link = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(mail.text)?.[0];
  expect(link).toBeTruthy();
  await page.goto(link!);
  await page.waitForLoadState("networkidle");
  return link!;
}
