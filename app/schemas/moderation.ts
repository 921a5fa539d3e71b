// The moderation forms and the reports queue's query (ADR 008). Messages are
// catalogue keys, translated where they are shown.

import type { MessageKey } from "~/i18n/keys.generated";
import { REPORT_REASONS as REPORT_REASON_IDS, type ReportReason as ReportReasonId } from "./report";
import "virtual:catalogue/admin";

export const REPORT_STATUSES = ["pending", "reviewed", "dismissed"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** The queue filters by the reasons the report form offers. */
export { REPORT_REASON_IDS, type ReportReasonId };

/** A stored report's reason is one of the form's (the schema checks it), shown by its label. */
export function isReportReason(value: string): value is ReportReasonId {
  return (REPORT_REASON_IDS as readonly string[]).includes(value);
}

/** The longest reason a moderator may give (the owner reads it in My Ads). */
export const REASON_MAX_LENGTH = 500;

export const MODERATION_INTENTS = ["dismiss", "review", "hide", "restore", "suspend", "reinstate"] as const;
export type ModerationIntent = (typeof MODERATION_INTENTS)[number];

/** Hiding a listing and suspending an owner need a reason: the owner is told why. */
export const REASON_REQUIRED: readonly ModerationIntent[] = ["hide", "suspend"];

export type ModerationFormResult =
  | { ok: true; intent: ModerationIntent; reason: string | null }
  | { ok: false; intent: ModerationIntent | null; error: MessageKey; reason: string };

function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === "string" && (values as readonly string[]).includes(value);
}

export function parseModerationForm(form: FormData): ModerationFormResult {
  const rawIntent = form.get("intent");
  const rawReason = form.get("reason");
  const reason = typeof rawReason === "string" ? rawReason.trim() : "";
  if (!isOneOf(MODERATION_INTENTS, rawIntent))
    return { ok: false, intent: null, error: "admin.actions.errors.unknownAction", reason };
  const intent = rawIntent;
  if (reason.length > REASON_MAX_LENGTH)
    return {
      ok: false,
      intent,
      error: "admin.actions.errors.reasonTooLong",
      reason: reason.slice(0, REASON_MAX_LENGTH),
    };
  if (!reason && REASON_REQUIRED.includes(intent))
    return { ok: false, intent, error: "admin.actions.errors.reasonRequired", reason };
  return { ok: true, intent, reason: reason || null };
}

export type QueueQuery = { status?: ReportStatus; reason?: ReportReasonId; page: number };

/** /admin?status=…&reason=…&page=…: unknown values are ignored rather than refused. */
export function parseQueueQuery(params: URLSearchParams): QueueQuery {
  const status = params.get("status");
  const reason = params.get("reason");
  return {
    status: isOneOf(REPORT_STATUSES, status) ? status : undefined,
    reason: isOneOf(REPORT_REASON_IDS, reason) ? reason : undefined,
    page: parsePage(params),
  };
}

export function parsePage(params: URLSearchParams): number {
  const raw = params.get("page");
  const page = raw && /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  return Math.max(page, 1);
}
