// zod/mini: the same rules in a much smaller browser bundle.
import * as z from "zod/mini";
import type { MessageKey } from "~/i18n/keys.generated";
import { type FormParseResult, parseWith, readFields, requiredText } from "./form-errors";
// Its error messages are catalogue keys, translated where they are shown.
import "virtual:catalogue/info";

/** The subject choices, in order. */
export const CONTACT_SUBJECTS = [
  "General Inquiry",
  "Technical Support",
  "Listing a Property",
  "Report an Issue",
  "Partnership Opportunity",
  "Feedback & Suggestions",
  "Other",
] as const;

export type ContactSubject = (typeof CONTACT_SUBJECTS)[number];

export const CONTACT_LIMITS = { name: 100, email: 254, message: 5000 } as const;

export const CONTACT_FIELDS = ["name", "email", "subject", "message"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

// Messages are catalogue keys so the browser and the server show the same words.
export const contactSchema = z.object({
  name: requiredText(CONTACT_LIMITS.name, "info.contact.errors.nameRequired", "info.contact.errors.nameTooLong"),
  email: z.pipe(
    requiredText(CONTACT_LIMITS.email, "info.contact.errors.emailRequired", "info.contact.errors.emailTooLong"),
    z.email("info.contact.errors.emailInvalid"),
  ),
  subject: z.enum(CONTACT_SUBJECTS, "info.contact.errors.subjectRequired"),
  message: requiredText(
    CONTACT_LIMITS.message,
    "info.contact.errors.messageRequired",
    "info.contact.errors.messageTooLong",
  ),
});

export type ContactInput = z.infer<typeof contactSchema>;
export type ContactValues = Record<ContactField, string>;
export type ContactErrors = Partial<Record<ContactField, MessageKey>>;

export type ContactParseResult = FormParseResult<ContactField, ContactInput>;

/** Reads the four fields from a form (missing fields count as empty) and validates them. */
export function parseContactForm(form: FormData): ContactParseResult {
  return parseWith(contactSchema, CONTACT_FIELDS, readFields(form, CONTACT_FIELDS));
}

export function isContactSubject(value: string): value is ContactSubject {
  return (CONTACT_SUBJECTS as readonly string[]).includes(value);
}
