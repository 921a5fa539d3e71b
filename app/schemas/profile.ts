import * as z from "zod/mini";
import { isLocale } from "~/i18n/locales";
import { type FormParseResult, parseWith, readFields, requiredText } from "./form-errors";
import { NAME_MAX_LENGTH, PHONE_PATTERN } from "./signup";
import "virtual:catalogue/accounts";

// Email is deliberately absent: it cannot be changed.
export const PROFILE_FIELDS = ["name", "phone", "locale"] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

export const profileSchema = z.object({
  name: requiredText(NAME_MAX_LENGTH, "accounts.settings.errors.name", "accounts.settings.errors.nameTooLong"),
  phone: z.string().check(
    z.trim(),
    z.refine((p) => p === "" || PHONE_PATTERN.test(p), "accounts.settings.errors.phone"),
  ),
  // The language of the emails the account receives (ADR 069); a form without it keeps the current one.
  locale: z.string().check(z.refine((v) => v === "" || isLocale(v), "accounts.settings.errors.locale")),
});

export type ProfileInput = z.infer<typeof profileSchema>;

export function parseProfileForm(form: FormData): FormParseResult<ProfileField, ProfileInput> {
  return parseWith(profileSchema, PROFILE_FIELDS, readFields(form, PROFILE_FIELDS));
}
