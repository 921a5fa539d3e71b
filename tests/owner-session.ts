import { randomBytes } from "node:crypto";
import { SESSION_COOKIE_NAME, SESSION_DAYS } from "../app/auth/session-cookie";
import { signedSessionToken } from "../app/auth/session-signature.server";
import type { DB } from "../app/db/db.server";
import { createOwnerAccount } from "../app/models/account.server";

// Imports nothing that needs Vite (message catalogues): Playwright loads this too (tests/e2e/owners.ts).

export const OWNER_PASSWORD = "Secret-pass1";

export type Owner = { id: string; email: string; name: string; password: string };

export type OwnerOptions = { name?: string; role?: "owner" | "moderator" };

/**
 * A confirmed owner, as sign-up and its emailed link leave one (ADR 066): createOwnerAccount's user
 * and credential rows, with the phone the sign-up form's tests give and OWNER_PASSWORD, so a test can
 * still log in with it. A fresh address each time: tests never share an account.
 */
export async function insertOwner(db: DB, options: OwnerOptions = {}): Promise<Owner> {
  const { name = "Poster Owner", role = "owner" } = options;
  const email = `owner-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}@example.lk`;
  const { id } = await createOwnerAccount(db, { name, email, phone: "0771234567", password: OWNER_PASSWORD, role });
  return { id, email, name, password: OWNER_PASSWORD };
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
