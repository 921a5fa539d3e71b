import { randomBytes, randomInt } from "node:crypto";
import { SESSION_COOKIE_NAME, SESSION_DAYS } from "../app/auth/session-cookie";
import { signedSessionToken } from "../app/auth/session-signature.server";
import type { DB } from "../app/db/db.server";
import { toE164 } from "../app/lib/phone";
import { createOwnerAccount } from "../app/models/account.server";
import { recordConfirmation } from "../app/models/phone-confirmation.server";

// Imports nothing that needs Vite (message catalogues): Playwright loads this too (tests/e2e/owners.ts).

export const OWNER_PASSWORD = "Secret-pass1";

export type Owner = { id: string; email: string; name: string; password: string; phone: string };

export type OwnerOptions = {
  name?: string;
  role?: "owner" | "moderator";
  /** The profile's phone (a fresh mobile number otherwise). */
  phone?: string;
  /** false: the phone is not confirmed (tests about confirming it); confirmed today otherwise. */
  phoneConfirmed?: boolean;
};

const MOBILE_PREFIXES = ["070", "072", "074", "075", "078"];
let phoneSeq = 0;

/**
 * A Sri Lankan mobile number no other test owner has (the 3 ads per phone across accounts,
 * ADR 076, would otherwise count every test's ads together): a counter for this process, and
 * chance across the processes of one run. Never a demo login's number (071, 076, 077).
 */
export function uniquePhone(): string {
  const prefix = MOBILE_PREFIXES[randomInt(MOBILE_PREFIXES.length)];
  return `${prefix}${String((randomInt(10_000_000) + ++phoneSeq * 7919) % 10_000_000).padStart(7, "0")}`;
}

/**
 * A standing confirmation of `phone` by the user, as entering an SMS code leaves one (ADR 076),
 * written straight into the database as the session is: posting with it asks for no code.
 * `confirmedAt` in the past tests the 180 days.
 */
export async function insertPhoneConfirmation(
  db: DB,
  userId: string,
  phone: string,
  confirmedAt = new Date(),
): Promise<void> {
  await recordConfirmation(db, userId, toE164(phone)!, confirmedAt);
}

/**
 * A confirmed owner, as sign-up and its emailed link leave one (ADR 066): createOwnerAccount's user
 * and credential rows, with OWNER_PASSWORD, so a test can still log in with it, and a phone of its
 * own confirmed by SMS today (ADR 076), so posting asks for no code. A fresh address and number each
 * time: tests never share an account or a phone.
 */
export async function insertOwner(db: DB, options: OwnerOptions = {}): Promise<Owner> {
  const { name = "Poster Owner", role = "owner", phone = uniquePhone() } = options;
  const email = `owner-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}@example.lk`;
  const { id } = await createOwnerAccount(db, { name, email, phone, password: OWNER_PASSWORD, role });
  if (options.phoneConfirmed !== false) await insertPhoneConfirmation(db, id, phone);
  return { id, email, name, password: OWNER_PASSWORD, phone };
}

export type SessionCookie = { name: string; value: string; expires: Date };

/**
 * A session of the user as better-auth writes one at sign-in (ADR 019: 30 days from now), and the
 * cookie that carries it, signed with the site's session secret as better-auth signs it. Straight
 * into the database: no login page, no password hash to check.
 */
export async function insertSession(db: DB, userId: string, secret: string): Promise<SessionCookie> {
  const token = randomBytes(24).toString("base64url");
  const now = new Date();
  const expires = new Date(now.getTime() + SESSION_DAYS * 24 * 60 * 60 * 1000);
  await db
    .insertInto("sessions")
    .values({
      id: crypto.randomUUID(),
      userId,
      token,
      expiresAt: expires.toISOString(),
      ipAddress: "127.0.0.1",
      userAgent: null,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
    .execute();
  return { name: SESSION_COOKIE_NAME, value: encodeURIComponent(signedSessionToken(token, secret)), expires };
}
