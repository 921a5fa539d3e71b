import { describe, expect, it } from "vitest";
import { t } from "~/i18n";
import { safeRedirect } from "~/lib/safe-redirect";
import { parseForgotPasswordForm, parseLoginForm, parseResetPasswordForm } from "./login";
import { parseProfileForm } from "./profile";
import { parseSignupForm } from "./signup";

function form(fields: Record<string, string>) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

const valid = {
  name: "Nimali Perera",
  email: "nimali@example.lk",
  phone: "0771234567",
  password: "Secret-pass1",
  confirmPassword: "Secret-pass1",
  terms: "on",
};

/** The sign-up rules in the product specification's order: each case breaks that rule and every later one. */
const SIGNUP_RULES: Array<[string, Record<string, string>, string]> = [
  ["name", { name: " A " }, "Name must be at least 2 characters long"],
  ["email", { email: "not an@email.lk" }, "Please enter a valid email address"],
  ["phone", { phone: "07712345" }, "Please enter a valid 10-digit phone number"],
  ["password", { password: "Ab1", confirmPassword: "Ab1" }, "Password must be at least 8 characters long"],
  [
    "password",
    { password: "alllowercase1", confirmPassword: "alllowercase1" },
    "Password must contain uppercase, lowercase, and number characters",
  ],
  ["confirmPassword", { confirmPassword: "Secret-pass2" }, "Passwords do not match"],
  ["terms", { terms: "" }, "Please agree to the Terms and Conditions"],
];

describe("sign-up schema", () => {
  it("accepts a valid form, trimming the name and lower-casing the email", () => {
    const result = parseSignupForm(form({ ...valid, name: "  Nimali  ", email: " Nimali@Example.LK " }));
    expect(result.ok && result.data).toMatchObject({ name: "Nimali", email: "nimali@example.lk", phone: "0771234567" });
  });

  it.each(SIGNUP_RULES.map((rule, i) => [i + 1, ...rule] as const))(
    "rule %i (%s) shows its message first, whatever fails after it",
    (index, field, broken, message) => {
      const laterBreaks = Object.assign({}, ...SIGNUP_RULES.slice(index).map(([, b]) => b));
      const result = parseSignupForm(form({ ...valid, ...laterBreaks, ...broken }));
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(t(result.first)).toBe(message);
      expect(t(result.errors[field as keyof typeof result.errors]!)).toBe(message);
    },
  );

  it("reports every failing field at once", () => {
    const result = parseSignupForm(form({}));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(["email", "name", "password", "phone", "terms"]);
    expect(t(result.first)).toBe("Name must be at least 2 characters long");
  });

  it("rejects phones that are not exactly 10 digits", () => {
    for (const phone of ["077123456", "07712345678", "077-1234567", "07712345a7"]) {
      expect(parseSignupForm(form({ ...valid, phone })).ok, phone).toBe(false);
    }
  });
});

describe("login schema", () => {
  it("needs both fields: 'Please fill in all fields'", () => {
    const cases: Array<Record<string, string>> = [{ email: "", password: "x" }, { email: "a@b.lk", password: "" }, {}];
    for (const fields of cases) {
      const result = parseLoginForm(form(fields));
      expect(!result.ok && t(result.first)).toBe("Please fill in all fields");
    }
  });

  it("reads remember-me and a safe redirect", () => {
    const result = parseLoginForm(
      form({ email: "A@B.lk", password: "x", rememberMe: "on", redirectTo: "/dashboard/settings?x=1" }),
    );
    expect(result.ok && result.data).toEqual({
      email: "a@b.lk",
      password: "x",
      rememberMe: true,
      redirectTo: "/dashboard/settings?x=1",
    });
    const unchecked = parseLoginForm(form({ email: "a@b.lk", password: "x", redirectTo: "https://evil.example" }));
    expect(unchecked.ok && unchecked.data).toMatchObject({ rememberMe: false, redirectTo: "/dashboard" });
  });

  it("only redirects to paths on this site", () => {
    expect(safeRedirect("//evil.example")).toBe("/dashboard");
    expect(safeRedirect("/\\evil.example")).toBe("/dashboard");
    expect(safeRedirect(null)).toBe("/dashboard");
    expect(safeRedirect("/listing/x")).toBe("/listing/x");
  });

  it("forgot password needs the email first", () => {
    const result = parseForgotPasswordForm(form({ email: " " }));
    expect(!result.ok && t(result.first)).toBe("Please enter your email address first");
    expect(parseForgotPasswordForm(form({ email: "owner@example.lk" })).ok).toBe(true);
  });

  it("a new password follows the sign-up policy", () => {
    const short = parseResetPasswordForm(form({ password: "Ab1", confirmPassword: "Ab1" }));
    expect(!short.ok && t(short.first)).toBe("Password must be at least 8 characters long");
    const mismatch = parseResetPasswordForm(form({ password: "Secret-pass1", confirmPassword: "Secret-pass2" }));
    expect(!mismatch.ok && t(mismatch.first)).toBe("Passwords do not match");
    expect(parseResetPasswordForm(form({ password: "Secret-pass1", confirmPassword: "Secret-pass1" })).ok).toBe(true);
  });
});

describe("profile schema", () => {
  it("needs a name; the phone is 10 digits or empty; email is not read", () => {
    expect(parseProfileForm(form({ name: "  ", phone: "" })).ok).toBe(false);
    expect(parseProfileForm(form({ name: "N", phone: "123" })).ok).toBe(false);
    const ok = parseProfileForm(form({ name: " Nimali ", phone: "", email: "other@example.lk" }));
    // No language sent: the account keeps its own (ADR 069).
    expect(ok.ok && ok.data).toEqual({ name: "Nimali", phone: "", locale: "" });
  });

  it("takes a preferred language of English, Sinhala or Tamil, and refuses any other with a message", () => {
    for (const locale of ["en", "si", "ta"]) {
      const parsed = parseProfileForm(form({ name: "Nimali", phone: "", locale }));
      expect(parsed.ok && parsed.data.locale).toBe(locale);
    }
    const refused = parseProfileForm(form({ name: "Nimali", phone: "", locale: "fr" }));
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.errors.locale).toBe("accounts.settings.errors.locale");
  });
});
