import { describe, expect, it } from "vitest";
import { type MessageKey, t } from "~/i18n";
import { CONTACT_LIMITS, parseContactForm } from "./contact";
import { parseForgotPasswordForm, parseLoginForm, parseResetPasswordForm } from "./login";
import { parseProfileForm } from "./profile";
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, parseSignupForm } from "./signup";
import "virtual:catalogue/accounts";
import "virtual:catalogue/info";

// ADR 010: every text input has a maximum length the server enforces, with a clear message.

function form(fields: Record<string, string>) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

const longEmail = (length: number) => `${"a".repeat(length - "@example.lk".length)}@example.lk`;
const longPassword = (length: number) => `Aa1${"x".repeat(length - 3)}`;
const signup = {
  name: "Nimali",
  email: "n@example.lk",
  phone: "0771234567",
  password: "Secret-pass1",
  confirmPassword: "Secret-pass1",
  terms: "on",
};

type Parsed = { ok: boolean; errors?: Record<string, MessageKey | undefined> };
const errorOf = (parsed: Parsed, field: string) => (parsed.ok ? undefined : t(parsed.errors![field]!));

describe("maximum lengths", () => {
  it("sign-up: name, email and password, each at the limit and one past it", () => {
    expect(parseSignupForm(form({ ...signup, name: "N".repeat(NAME_MAX_LENGTH) })).ok).toBe(true);
    expect(errorOf(parseSignupForm(form({ ...signup, name: "N".repeat(NAME_MAX_LENGTH + 1) })), "name")).toBe(
      "Name must be 100 characters or fewer",
    );

    expect(parseSignupForm(form({ ...signup, email: longEmail(EMAIL_MAX_LENGTH) })).ok).toBe(true);
    expect(errorOf(parseSignupForm(form({ ...signup, email: longEmail(EMAIL_MAX_LENGTH + 1) })), "email")).toBe(
      "Email address must be 254 characters or fewer",
    );

    const atLimit = longPassword(PASSWORD_MAX_LENGTH);
    expect(parseSignupForm(form({ ...signup, password: atLimit, confirmPassword: atLimit })).ok).toBe(true);
    const tooLong = longPassword(PASSWORD_MAX_LENGTH + 1);
    expect(errorOf(parseSignupForm(form({ ...signup, password: tooLong, confirmPassword: tooLong })), "password")).toBe(
      "Password must be 128 characters or fewer",
    );
    // A phone number is exactly 10 digits, so a long one is simply invalid.
    expect(errorOf(parseSignupForm(form({ ...signup, phone: "0".repeat(5000) })), "phone")).toBe(
      "Please enter a valid 10-digit phone number",
    );
  });

  it("log in, forgot password and reset password", () => {
    const login = { email: "n@example.lk", password: "whatever" };
    expect(errorOf(parseLoginForm(form({ ...login, email: longEmail(EMAIL_MAX_LENGTH + 1) })), "email")).toBe(
      "Email address must be 254 characters or fewer",
    );
    expect(errorOf(parseLoginForm(form({ ...login, password: "x".repeat(PASSWORD_MAX_LENGTH + 1) })), "password")).toBe(
      "Password must be 128 characters or fewer",
    );
    expect(parseLoginForm(form({ ...login, password: "x".repeat(PASSWORD_MAX_LENGTH) })).ok).toBe(true);
    expect(errorOf(parseForgotPasswordForm(form({ email: longEmail(EMAIL_MAX_LENGTH + 1) })), "email")).toBe(
      "Email address must be 254 characters or fewer",
    );
    const tooLong = longPassword(PASSWORD_MAX_LENGTH + 1);
    expect(errorOf(parseResetPasswordForm(form({ password: tooLong, confirmPassword: tooLong })), "password")).toBe(
      "Password must be 128 characters or fewer",
    );
  });

  it("profile settings: the name", () => {
    expect(parseProfileForm(form({ name: "N".repeat(NAME_MAX_LENGTH), phone: "" })).ok).toBe(true);
    expect(errorOf(parseProfileForm(form({ name: "N".repeat(NAME_MAX_LENGTH + 1), phone: "" })), "name")).toBe(
      "Your name must be 100 characters or fewer",
    );
  });

  it("contact: name, email and message", () => {
    const contact = { name: "Kasun", email: "k@example.com", subject: "Other", message: "Hello" };
    expect(errorOf(parseContactForm(form({ ...contact, name: "K".repeat(CONTACT_LIMITS.name + 1) })), "name")).toBe(
      "Your name must be 100 characters or fewer.",
    );
    expect(errorOf(parseContactForm(form({ ...contact, email: longEmail(CONTACT_LIMITS.email + 1) })), "email")).toBe(
      "Your email address must be 254 characters or fewer.",
    );
    expect(
      errorOf(parseContactForm(form({ ...contact, message: "m".repeat(CONTACT_LIMITS.message + 1) })), "message"),
    ).toBe("Your message must be 5,000 characters or fewer.");
  });
});
