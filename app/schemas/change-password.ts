import * as z from "zod/mini";
import { type FormParseResult, parseWith, readFields } from "./form-errors";
import { PASSWORD_MAX_LENGTH, passwordSchema, passwordsMatch } from "./signup";
import "virtual:catalogue/accounts";

/** Settings, "Change password": the same policy (and messages) as sign-up and reset. */
export const CHANGE_PASSWORD_FIELDS = ["currentPassword", "password", "confirmPassword"] as const;
export type ChangePasswordField = (typeof CHANGE_PASSWORD_FIELDS)[number];

export const changePasswordSchema = z
  .object({
    currentPassword: z
      .string()
      .check(
        z.minLength(1, "accounts.settings.password.currentRequired"),
        z.maxLength(PASSWORD_MAX_LENGTH, "accounts.settings.password.wrongCurrent"),
      ),
    password: passwordSchema,
    confirmPassword: z.string(),
  })
  .check(passwordsMatch);

export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export function parseChangePasswordForm(form: FormData): FormParseResult<ChangePasswordField, ChangePasswordInput> {
  return parseWith(changePasswordSchema, CHANGE_PASSWORD_FIELDS, readFields(form, CHANGE_PASSWORD_FIELDS));
}
