import { describe, expect, it } from "vitest";
import { t } from "~/i18n";
import { AUTH_ERROR_KEYS, DATABASE_ERROR_KEYS, friendlyError } from "./error-messages";

/** The product specification's messages, word for word. */
const AUTH_TEXTS: Record<string, string> = {
  "user-not-found": "No account found with this email address. Please check your email or sign up for a new account.",
  "wrong-password": "Incorrect password. Please try again or reset your password.",
  "invalid-credential": "Invalid email or password. Please check your credentials and try again.",
  "invalid-email": "Please enter a valid email address.",
  "user-disabled": "This account has been disabled. Please contact support for assistance.",
  "too-many-requests": "Too many failed attempts. Please wait a few minutes before trying again.",
  "email-already-in-use": "An account with this email already exists. Please try logging in instead.",
  "weak-password": "Password is too weak. Please choose a stronger password with at least 8 characters.",
  "requires-recent-login": "This action requires recent login. Please log in again and try again.",
  "network-request-failed": "Network error. Please check your internet connection and try again.",
  timeout: "The operation timed out. Please check your internet connection and try again.",
  "user-token-expired": "Your session has expired. Please log in again.",
  "expired-action-code": "This link has expired. Please request a new one.",
  "invalid-action-code": "Invalid link. Please request a new one.",
  "invalid-verification-code": "Invalid verification code. Please check and try again.",
  "invalid-phone-number-verification-code": "Invalid verification code. Please check and try again.",
  "code-expired": "The verification code has expired. Please request a new one.",
  "captcha-check-failed": "reCAPTCHA verification failed. Please try again.",
  "missing-email": "Please provide an email address.",
  "missing-password": "Please provide a password.",
  "invalid-phone-number": "Please provide a valid phone number.",
  "phone-number-already-exists": "This phone number is already registered. Please use a different one.",
  "internal-error": "An unexpected error occurred. Please try again.",
  "quota-exceeded": "Service temporarily unavailable. Please try again later.",
};

const DATABASE_TEXTS: Record<string, string> = {
  "permission-denied": "You do not have permission to perform this action.",
  "not-found": "The requested data was not found.",
  "already-exists": "This item already exists.",
  "resource-exhausted": "Service temporarily unavailable. Please try again later.",
  unavailable: "Service temporarily unavailable. Please try again later.",
  "failed-precondition": "Operation failed. Please try again.",
  aborted: "Operation was cancelled. Please try again.",
  unimplemented: "This feature is not available.",
  unauthenticated: "Please log in to continue.",
  "data-loss": "Data error. Please contact support.",
};

const text = (error: unknown) => t(friendlyError(error).key);

describe("friendlyError", () => {
  it.each(Object.entries(AUTH_TEXTS))("auth code %s, bare or prefixed with auth/", (code, expected) => {
    expect(text({ code })).toBe(expected);
    expect(text({ code: `auth/${code}` })).toBe(expected);
  });

  it.each(Object.entries(DATABASE_TEXTS))("database code %s", (code, expected) => {
    expect(text({ code })).toBe(expected);
    expect(friendlyError({ code }).kind).toBe("database");
  });

  it.each(["unauthorized-domain", "app-not-authorized", "invalid-api-key", "operation-not-allowed"])(
    "code %s asks to contact support",
    (code) => {
      expect(text({ code })).toMatch(/contact support/);
    },
  );

  it.each(["internal", "out-of-range"])("database code %s has its own text", (code) => {
    const key = friendlyError({ code }).key;
    expect(key).toBe(DATABASE_ERROR_KEYS[code as keyof typeof DATABASE_ERROR_KEYS]);
    expect(t(key)).not.toBe(key);
  });

  it("every listed code has a catalogue text", () => {
    for (const key of [...Object.values(AUTH_ERROR_KEYS), ...Object.values(DATABASE_ERROR_KEYS)]) {
      expect(t(key), key).not.toBe(key);
    }
  });

  it("maps better-auth's codes onto the spec's messages", () => {
    expect(text({ body: { code: "INVALID_EMAIL_OR_PASSWORD" } })).toBe(AUTH_TEXTS["invalid-credential"]);
    expect(text({ body: { code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" } })).toBe(AUTH_TEXTS["email-already-in-use"]);
    expect(text({ body: { code: "PASSWORD_TOO_SHORT" } })).toBe(AUTH_TEXTS["weak-password"]);
    expect(text({ body: { code: "INVALID_TOKEN" } })).toBe(AUTH_TEXTS["invalid-action-code"]);
  });

  it("kinds: network codes are network, others auth", () => {
    expect(friendlyError({ code: "network-request-failed" }).kind).toBe("network");
    expect(friendlyError({ code: "timeout" }).kind).toBe("network");
    expect(friendlyError({ code: "wrong-password" }).kind).toBe("auth");
  });

  describe("fallbacks", () => {
    it("an unknown code containing network or timeout gives the network message", () => {
      expect(text({ code: "auth/some-network-thing" })).toBe(AUTH_TEXTS["network-request-failed"]);
      expect(text({ code: "deadline-timeout-x" })).toBe(AUTH_TEXTS["network-request-failed"]);
    });
    it("a message mentioning network or fetch gives the network message", () => {
      expect(text(new Error("Network down"))).toBe(AUTH_TEXTS["network-request-failed"]);
      expect(text(new TypeError("Failed to fetch"))).toBe(AUTH_TEXTS["network-request-failed"]);
    });
    it("a message mentioning timeout", () => {
      expect(text(new Error("Query timeout after 5s"))).toBe("Request timed out. Please try again.");
    });
    it("a message mentioning permission or unauthorized", () => {
      expect(text(new Error("Unauthorized"))).toBe(DATABASE_TEXTS["permission-denied"]);
      expect(text(new Error("permission missing"))).toBe(DATABASE_TEXTS["permission-denied"]);
    });
    it("anything else", () => {
      expect(text(new Error("boom"))).toBe("An error occurred. Please try again.");
      expect(text(null)).toBe("An error occurred. Please try again.");
      expect(text({ code: "something-new" })).toBe("An unexpected error occurred. Please try again.");
      expect(friendlyError(new Error("boom")).kind).toBe("unknown");
    });
  });
});
