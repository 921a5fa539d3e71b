import * as z from "zod/mini";
import { safeRedirect } from "~/lib/safe-redirect";
import { type FormParseResult, parseWith, readFields } from "./form-errors";
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN, PASSWORD_MAX_LENGTH, passwordSchema, passwordsMatch } from "./signup";
import "virtual:catalogue/accounts";

export const LOGIN_FIELDS = ["email", "password"] as const;
export type LoginField = (typeof LOGIN_FIELDS)[number];

/** An email address as typed at login: trimmed, lower-cased, required, not too long. */
const emailField = (requiredMessage: string) =>
  z
    .string()
    .check(
      z.trim(),
      z.toLowerCase(),
      z.minLength(1, requiredMessage),
      z.maxLength(EMAIL_MAX_LENGTH, "accounts.signup.errors.emailTooLong"),
    );

/** Both fields needed. */
export const loginSchema = z.object({
  email: emailField("accounts.login.errors.fillAllFields"),
  password: z
    .string()
    .check(
      z.minLength(1, "accounts.login.errors.fillAllFields"),
      z.maxLength(PASSWORD_MAX_LENGTH, "accounts.signup.errors.passwordTooLong"),
    ),
});

export type LoginInput = z.infer<typeof loginSchema> & { rememberMe: boolean; redirectTo: string };

/** `siteUrl` on the server: where to go after signing in may then also be an absolute URL of our own site. */
export function parseLoginForm(form: FormData, siteUrl?: string): FormParseResult<LoginField, LoginInput> {
  const values = readFields(form, LOGIN_FIELDS);
  const parsed = parseWith(loginSchema, LOGIN_FIELDS, values);
  if (!parsed.ok) return parsed;
  return {
    ...parsed,
    data: {
      ...parsed.data,
      rememberMe: form.get("rememberMe") === "on",
      redirectTo: safeRedirect(form.get("redirectTo"), "/dashboard", siteUrl),
    },
  };
}

export const forgotPasswordSchema = z.object({
  email: emailField("accounts.forgot.needEmail").check(z.regex(EMAIL_PATTERN, "accounts.signup.errors.email")),
});

export function parseForgotPasswordForm(form: FormData): FormParseResult<"email", { email: string }> {
  return parseWith(forgotPasswordSchema, ["email"], readFields(form, ["email"]));
}

export const RESET_FIELDS = ["password", "confirmPassword"] as const;
export const resetPasswordSchema = z
  .object({ password: passwordSchema, confirmPassword: z.string() })
  .check(passwordsMatch);

export function parseResetPasswordForm(form: FormData) {
  return parseWith(resetPasswordSchema, RESET_FIELDS, readFields(form, RESET_FIELDS));
}
