// zod/mini: the same rules in a much smaller browser bundle (the report
// dialog loads this on demand).
import * as z from "zod/mini";
import type { MessageKey } from "~/i18n/keys.generated";
import { type FormParseResult, parseWith, readFields, requiredText } from "./form-errors";
// Its error messages are catalogue keys, translated where they are shown.
import "virtual:catalogue/report";

/** The reasons, in order (ids are stored). 'money-before-viewing' weighs more in auto-hide (ADR 077). */
export const REPORT_REASONS = [
  "fake-listing",
  "money-before-viewing",
  "inappropriate-content",
  "spam",
  "wrong-information",
  "safety-concerns",
  "harassment",
  "other",
] as const;

export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_LIMITS = {
  reporterName: 100,
  reporterEmail: 254,
  reporterContact: 100,
  description: 2000,
} as const;

/** In the spec's order: the error list follows it. */
export const REPORT_FIELDS = [
  "listingId",
  "reporterName",
  "reporterEmail",
  "reporterContact",
  "reason",
  "description",
] as const;
export type ReportField = (typeof REPORT_FIELDS)[number];

export const reportSchema = z.object({
  listingId: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, "report.errors.listingIdRequired"),
      z.regex(/^\d{1,12}$/, "report.errors.listingNotFound"),
    ),
  reporterName: requiredText(REPORT_LIMITS.reporterName, "report.errors.nameRequired", "report.errors.nameTooLong"),
  reporterEmail: z.pipe(
    requiredText(REPORT_LIMITS.reporterEmail, "report.errors.emailRequired", "report.errors.emailTooLong"),
    z.email("report.errors.emailInvalid"),
  ),
  reporterContact: requiredText(
    REPORT_LIMITS.reporterContact,
    "report.errors.contactRequired",
    "report.errors.contactTooLong",
  ),
  reason: z.enum(REPORT_REASONS, "report.errors.reasonRequired"),
  description: z.string().check(z.trim(), z.maxLength(REPORT_LIMITS.description, "report.errors.descriptionTooLong")),
});

export type ReportInput = z.infer<typeof reportSchema>;
export type ReportValues = Record<ReportField, string>;
export type ReportErrors = Partial<Record<ReportField, MessageKey>>;

/** Reads the report fields from a form (missing fields count as empty) and validates them. */
export function parseReportForm(form: FormData): FormParseResult<ReportField, ReportInput> {
  return parseWith(reportSchema, REPORT_FIELDS, readFields(form, REPORT_FIELDS));
}
