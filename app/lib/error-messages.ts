// One place turns auth, database and network errors into
// friendly texts. Messages are catalogue keys, translated where shown.
import type { MessageKey } from "~/i18n/keys.generated";
import "virtual:catalogue/accounts";

export type ErrorKind = "auth" | "validation" | "network" | "database" | "unknown";
export type FriendlyError = { key: MessageKey; kind: ErrorKind };

/** The authentication codes listed in the product specification, with their catalogue keys. */
export const AUTH_ERROR_KEYS = {
  "user-not-found": "accounts.errors.auth.user-not-found",
  "wrong-password": "accounts.errors.auth.wrong-password",
  "invalid-credential": "accounts.errors.auth.invalid-credential",
  "invalid-email": "accounts.errors.auth.invalid-email",
  "user-disabled": "accounts.errors.auth.user-disabled",
  "too-many-requests": "accounts.errors.auth.too-many-requests",
  "email-already-in-use": "accounts.errors.auth.email-already-in-use",
  "weak-password": "accounts.errors.auth.weak-password",
  "requires-recent-login": "accounts.errors.auth.requires-recent-login",
  "network-request-failed": "accounts.errors.auth.network-request-failed",
  timeout: "accounts.errors.auth.timeout",
  "user-token-expired": "accounts.errors.auth.user-token-expired",
  "expired-action-code": "accounts.errors.auth.expired-action-code",
  "invalid-action-code": "accounts.errors.auth.invalid-action-code",
  "invalid-verification-code": "accounts.errors.auth.invalid-verification-code",
  "invalid-phone-number-verification-code": "accounts.errors.auth.invalid-verification-code",
  "code-expired": "accounts.errors.auth.code-expired",
  "captcha-check-failed": "accounts.errors.auth.captcha-check-failed",
  "missing-email": "accounts.errors.auth.missing-email",
  "missing-password": "accounts.errors.auth.missing-password",
  "invalid-phone-number": "accounts.errors.auth.invalid-phone-number",
  "phone-number-already-exists": "accounts.errors.auth.phone-number-already-exists",
  "internal-error": "accounts.errors.auth.internal-error",
  "unauthorized-domain": "accounts.errors.auth.contact-support",
  "app-not-authorized": "accounts.errors.auth.contact-support",
  "invalid-api-key": "accounts.errors.auth.contact-support",
  "operation-not-allowed": "accounts.errors.auth.operation-not-allowed",
  "quota-exceeded": "accounts.errors.auth.quota-exceeded",
} as const satisfies Record<string, MessageKey>;

/** The database codes listed in the product specification. */
export const DATABASE_ERROR_KEYS = {
  "permission-denied": "accounts.errors.database.permission-denied",
  "not-found": "accounts.errors.database.not-found",
  "already-exists": "accounts.errors.database.already-exists",
  "resource-exhausted": "accounts.errors.database.unavailable",
  unavailable: "accounts.errors.database.unavailable",
  "failed-precondition": "accounts.errors.database.failed-precondition",
  aborted: "accounts.errors.database.aborted",
  unimplemented: "accounts.errors.database.unimplemented",
  unauthenticated: "accounts.errors.database.unauthenticated",
  "data-loss": "accounts.errors.database.data-loss",
  internal: "accounts.errors.database.internal",
  "out-of-range": "accounts.errors.database.out-of-range",
} as const satisfies Record<string, MessageKey>;

/** better-auth's own error codes, mapped onto the spec's codes. */
const BETTER_AUTH_CODES: Record<string, keyof typeof AUTH_ERROR_KEYS> = {
  INVALID_EMAIL_OR_PASSWORD: "invalid-credential",
  INVALID_PASSWORD: "wrong-password",
  USER_NOT_FOUND: "user-not-found",
  INVALID_EMAIL: "invalid-email",
  USER_ALREADY_EXISTS: "email-already-in-use",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "email-already-in-use",
  PASSWORD_TOO_SHORT: "weak-password",
  PASSWORD_TOO_LONG: "weak-password",
  INVALID_TOKEN: "invalid-action-code",
  TOKEN_EXPIRED: "expired-action-code",
  SESSION_EXPIRED: "user-token-expired",
  TOO_MANY_REQUESTS: "too-many-requests",
  FAILED_TO_CREATE_USER: "internal-error",
  FAILED_TO_CREATE_SESSION: "internal-error",
  // Our own: a suspended account gets no session (app/auth/auth.server.ts).
  USER_SUSPENDED: "user-disabled",
};

const NETWORK_KEY = AUTH_ERROR_KEYS["network-request-failed"];

function codeOf(error: unknown): string | undefined {
  if (!error || typeof error !== "object") return undefined;
  const record = error as { code?: unknown; body?: { code?: unknown } };
  const code = record.body?.code ?? record.code;
  return typeof code === "string" ? code : undefined;
}

function messageOf(error: unknown): string {
  if (typeof error === "string") return error;
  if (error instanceof Error) return error.message;
  return "";
}

/**
 * Friendly text for any error: a known code first (Firebase-style
 * "auth/wrong-password", bare "wrong-password", or better-auth's
 * "INVALID_EMAIL_OR_PASSWORD"), then the section 8 fallbacks.
 */
export function friendlyError(error: unknown): FriendlyError {
  const rawCode = codeOf(error);
  if (rawCode) {
    const code = rawCode.replace(/^(auth|firestore)\//, "");
    if (code in AUTH_ERROR_KEYS) {
      const key = AUTH_ERROR_KEYS[code as keyof typeof AUTH_ERROR_KEYS];
      return { key, kind: key === NETWORK_KEY || code === "timeout" ? "network" : "auth" };
    }
    if (code in DATABASE_ERROR_KEYS) {
      return { key: DATABASE_ERROR_KEYS[code as keyof typeof DATABASE_ERROR_KEYS], kind: "database" };
    }
    const mapped = BETTER_AUTH_CODES[code];
    if (mapped) return { key: AUTH_ERROR_KEYS[mapped], kind: "auth" };
    if (/network|timeout/i.test(code)) return { key: NETWORK_KEY, kind: "network" };
  }
  const message = messageOf(error).toLowerCase();
  if (/network|fetch/.test(message)) return { key: NETWORK_KEY, kind: "network" };
  if (message.includes("timeout") || message.includes("timed out")) {
    return { key: "accounts.errors.requestTimeout", kind: "network" };
  }
  if (/permission|unauthorized/.test(message)) {
    return { key: DATABASE_ERROR_KEYS["permission-denied"], kind: "database" };
  }
  return { key: rawCode ? "accounts.errors.unexpected" : "accounts.errors.generic", kind: "unknown" };
}
