import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { waitForMail } from "./mail";

// The sqlite server sends through a real SMTP server (tests/smtp-sink.ts).
const SUPPORT_EMAIL = "support@bodima.lk";

test.describe("contact form email", () => {
  test.use({ javaScriptEnabled: false });

  test("emails the message to support, with Reply-To set to the sender", async ({ page }) => {
    const tag = randomBytes(4).toString("hex");
    const name = `Dilani ${tag}`;
    const sender = `dilani-${tag}@example.com`;
    await page.goto("/contact");
    await page.getByLabel("Your name").fill(name);
    await page.getByLabel("Email address").fill(sender);
    await page.getByLabel("Subject").selectOption("Listing a Property");
    await page.getByRole("textbox", { name: /^Message/ }).fill(`How do I add photos? (${tag})`);
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByText("Message Sent Successfully!")).toBeVisible();

    const mail = await waitForMail(SUPPORT_EMAIL, `Listing a Property from ${name}`, 10_000);
    expect(mail.subject).toBe(`[Bodima] Listing a Property from ${name}`);
    expect(mail.replyTo).toBe(sender);
    expect(mail.from).toBe("no-reply@bodima.lk");
    expect(mail.text).toContain(`${name} (${sender})`);
    expect(mail.text).toContain(`How do I add photos? (${tag})`);
  });
});

test("the development outbox page does not exist in production", async ({ page }) => {
  const response = await page.goto("/dev/outbox");
  expect(response?.status()).toBe(404);
});
