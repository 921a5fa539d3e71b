// The moderation forms and the reports queue's query (ADR 008). Messages are
// catalogue keys, translated where they are shown.

import type { MessageKey } from "~/i18n/keys.generated";
import { REPORT_REASONS as REPORT_REASON_IDS, type ReportReason as ReportReasonId } from "./report";
import type { ModerationCode } from "./result";
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

/** What a moderator decides about a listing held for review (ADR 078). */
export const HELD_INTENTS = ["approve", "reject"] as const;
export type HeldIntent = (typeof HELD_INTENTS)[number];

/** Hiding or rejecting a listing and suspending an owner need a reason: the owner is told why. */
export const REASON_REQUIRED: readonly (ModerationIntent | HeldIntent)[] = ["hide", "suspend", "reject"];

/** What a refused moderation action tells the moderator, and its HTTP status. */
export const MODERATION_FAILURES: Record<ModerationCode, { key: MessageKey; status: number }> = {
  "moderation.not_found": { key: "admin.actions.errors.notFound", status: 404 },
  "moderation.conflict": { key: "admin.actions.errors.conflict", status: 409 },
  "moderation.own_account": { key: "admin.actions.errors.self", status: 403 },
  "moderation.target_is_moderator": { key: "admin.actions.errors.moderator", status: 403 },
  "moderation.owner_suspended": { key: "admin.actions.errors.ownerSuspended", status: 409 },
};

export type ModerationFormResult =
  | { ok: true; intent: ModerationIntent; reason: string | null }
  | { ok: false; intent: ModerationIntent | null; error: MessageKey; reason: string };

function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === "string" && (values as readonly string[]).includes(value);
}

type ReasonField<I> =
  | { ok: true; intent: I; reason: string | null }
  | { ok: false; intent: I | null; error: MessageKey; reason: string };

/** The form's intent (one of `intents`) and its reason, checked: too long, or missing where required. */
function readIntentAndReason<I extends string>(form: FormData, intents: readonly I[]): ReasonField<I> {
  const rawIntent = form.get("intent");
  const rawReason = form.get("reason");
  const reason = typeof rawReason === "string" ? rawReason.trim() : "";
  if (!isOneOf(intents, rawIntent))
    return { ok: false, intent: null, error: "admin.actions.errors.unknownAction", reason };
  const intent = rawIntent;
  if (reason.length > REASON_MAX_LENGTH)
    return {
      ok: false,
      intent,
      error: "admin.actions.errors.reasonTooLong",
      reason: reason.slice(0, REASON_MAX_LENGTH),
    };
  if (!reason && (REASON_REQUIRED as readonly string[]).includes(intent))
    return { ok: false, intent, error: "admin.actions.errors.reasonRequired", reason };
  return { ok: true, intent, reason: reason || null };
}

export function parseModerationForm(form: FormData): ModerationFormResult {
  return readIntentAndReason(form, MODERATION_INTENTS);
}

export type HeldDecisionForm = ReasonField<HeldIntent> & { listingId: number | null };

/** An approve or reject form of the held-for-review queue: the intent, the listing's number and the reason. */
export function parseHeldDecisionForm(form: FormData): HeldDecisionForm {
  const raw = form.get("listingId");
  const listingId = typeof raw === "string" && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
  const parsed = readIntentAndReason(form, HELD_INTENTS);
  if (parsed.ok && listingId === null)
    return {
      ok: false,
      intent: parsed.intent,
      error: "admin.actions.errors.notFound",
      reason: parsed.reason ?? "",
      listingId,
    };
  return { ...parsed, listingId };
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
