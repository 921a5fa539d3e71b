// zod/mini: the same rules in a much smaller browser bundle.
import * as z from "zod/mini";
import type { MessageKey } from "~/i18n/keys.generated";
import { type FormParseResult, parseWith, readFields, requiredText } from "./form-errors";
// Its error messages are catalogue keys, translated where they are shown.
import "virtual:catalogue/accounts";

export const SIGNUP_FIELDS = ["name", "email", "phone", "password", "confirmPassword", "terms"] as const;
export type SignupField = (typeof SIGNUP_FIELDS)[number];

export const PHONE_LENGTH = 10;
export const PASSWORD_MIN_LENGTH = 8;
/** better-auth's default upper bound; long enough for any passphrase. */
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;
export const NAME_MAX_LENGTH = 100;

/** A simple x@y.z pattern without spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PHONE_PATTERN = /^\d{10}$/;

/** The live checklist under the password field. */
export const PASSWORD_RULES = [
  { id: "length", test: (p: string) => p.length >= PASSWORD_MIN_LENGTH },
  { id: "upper", test: (p: string) => /[A-Z]/.test(p) },
  { id: "lower", test: (p: string) => /[a-z]/.test(p) },
  { id: "number", test: (p: string) => /\d/.test(p) },
] as const;

export const passwordSchema = z.string().check(
  z.minLength(PASSWORD_MIN_LENGTH, "accounts.signup.errors.passwordLength"),
  z.maxLength(PASSWORD_MAX_LENGTH, "accounts.signup.errors.passwordTooLong"),
  z.refine((p) => /[A-Z]/.test(p) && /[a-z]/.test(p) && /\d/.test(p), "accounts.signup.errors.passwordChars"),
);

/** The new password typed twice (sign-up, reset, change password), judged also when other fields fail. */
export const passwordsMatch = z.refine<{ password: string; confirmPassword: string }>(
  (v) => v.password === v.confirmPassword,
  {
    message: "accounts.signup.errors.confirm",
    path: ["confirmPassword"],
    // Also when other fields fail, so every field shows its error at once.
    when: () => true,
  },
);

export const signupSchema = z
  .object({
    name: requiredText(NAME_MAX_LENGTH, "accounts.signup.errors.name", "accounts.signup.errors.nameTooLong", 2),
    email: z
      .string()
      .check(
        z.trim(),
        z.toLowerCase(),
        z.maxLength(EMAIL_MAX_LENGTH, "accounts.signup.errors.emailTooLong"),
        z.regex(EMAIL_PATTERN, "accounts.signup.errors.email"),
      ),
    phone: z.string().check(z.trim(), z.regex(PHONE_PATTERN, "accounts.signup.errors.phone")),
    password: passwordSchema,
    confirmPassword: z.string(),
    terms: z.string().check(z.refine((v) => v === "on" || v === "true", "accounts.signup.errors.terms")),
  })
  .check(passwordsMatch);

export type SignupInput = z.infer<typeof signupSchema>;
export type SignupErrors = Partial<Record<SignupField, MessageKey>>;

export function parseSignupForm(form: FormData): FormParseResult<SignupField, SignupInput> {
  return parseWith(signupSchema, SIGNUP_FIELDS, readFields(form, SIGNUP_FIELDS));
}
