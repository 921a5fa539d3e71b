import { expect, test } from "@playwright/test";
import { waitForMail } from "./mail";
import { field, PASSWORD, signedInOwner, uniqueWord } from "./owners";

// An owner's preferred language (ADR 069): set in Settings (or by the page they
// signed up on), and the language of the emails they receive, whatever page asks
// for them. Mail goes through the real SMTP sink.

test("an owner who prefers Tamil gets the password reset email in Tamil, with a link to the Tamil reset page", async ({
  browser,
}) => {
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  const { email } = await signedInOwner(owner, { name: "Tamil Owner" });
  await owner.goto("/dashboard/settings");
  await field(owner, "Language for emails").selectOption("ta");
  await owner.getByRole("button", { name: "Save Changes" }).click();
  // The owner pages follow the account's language from then on (ADR 036, 069): Settings opens in
  // Tamil, saying it saved.
  await expect(owner).toHaveURL(/\/ta\/dashboard\/settings\?done=profile$/);
  await expect(owner.getByText("மாற்றங்கள் வெற்றிகரமாகச் சேமிக்கப்பட்டன!")).toBeVisible();
  await expect(owner.locator("#settings-locale")).toHaveValue("ta");
  await ownerContext.close();

  // Asked for from the English login page: the email still follows the account's language.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/login");
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Email Address").fill(email);
  await page.getByRole("button", { name: "Forgot password?" }).click();
  await expect(page.getByText("Password reset email sent! Please check your inbox.")).toBeVisible();

  const mail = await waitForMail(email, /கடவுச்சொல்லை மீட்டமையுங்கள்/);
  expect(mail.text).toContain("வணக்கம் Tamil Owner,");
  expect(mail.text).not.toMatch(/Reset your|Hello /);
  const link = /https?:\/\/\S+\/ta\/reset-password\?token=\S+/.exec(mail.text)?.[0];
  expect(link).toBeTruthy();
  await page.goto(link!);
  await expect(page.locator("html")).toHaveAttribute("lang", "ta");
  await expect(page.locator("input[name='password']")).toBeVisible();
  await context.close();
});

test("an account made on a Sinhala page prefers Sinhala; a made-up language is refused with a message", async ({
  page,
}) => {
  const email = `sinhala-${uniqueWord()}@example.lk`;
  await page.goto("/si/signup");
  await page.locator("input[name='name']").fill("Sinhala Owner");
  await page.locator("input[name='email']").fill(email);
  await page.locator("input[name='phone']").fill("0771234567");
  await page.locator("input[name='password']").fill(PASSWORD);
  await page.locator("input[name='confirmPassword']").fill(PASSWORD);
  await page.locator("input[type='checkbox']").check();
  await page.locator("main form button[type='submit']").click();
  await expect(page).toHaveURL(/\/si\/dashboard$/, { timeout: 10_000 });

  await page.goto("/si/dashboard/settings");
  await expect(page.locator("select[name='locale']")).toHaveValue("si");

  // A client that posts any other value gets the field's message, in the page's language, and nothing changes.
  const response = await page.request.post("/si/dashboard/settings", {
    form: { name: "Sinhala Owner", phone: "0771234567", locale: "xx" },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(response.status()).toBe(400);
  await page.reload();
  await expect(page.locator("select[name='locale']")).toHaveValue("si");
});
