import { hashPassword } from "~/auth/password-hash.server";
import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { normalizeEmail } from "~/lib/email";
import { type AccountCode, fail, type Result } from "~/schemas/result";
import { inTransaction } from "./in-transaction.server";

export type NewOwnerAccount = {
  name: string;
  email: string;
  phone: string;
  password: string;
  role?: "owner" | "moderator";
};

export type CreatedAccount = { id: string; name: string; email: string };

/**
 * Creates an active user with an email-and-password login, in the shape
 * better-auth reads (a `credential` account whose accountId is the user id).
 * Used by seeding and tests; sign-up goes through better-auth itself. Its
 * address counts as confirmed (ADR 066): the operator who runs the seed chose
 * it, no stranger typed it into a form.
 */
export async function createOwnerAccount(db: DB, input: NewOwnerAccount): Promise<CreatedAccount> {
  const id = crypto.randomUUID();
  const email = normalizeEmail(input.email);
  const now = currentTime().toISOString();
  const passwordHash = await hashPassword(input.password);
  const insertBoth = async (trx: DB) => {
    await trx
      .insertInto("users")
      .values({
        id,
        name: input.name,
        email,
        emailVerified: 1,
        emailConfirmedAt: now,
        image: null,
        phone: input.phone,
        role: input.role ?? "owner",
        status: "active",
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    await trx
      .insertInto("accounts")
      .values({
        id: crypto.randomUUID(),
        accountId: id,
        providerId: "credential",
        userId: id,
        accessToken: null,
        refreshToken: null,
        idToken: null,
        accessTokenExpiresAt: null,
        refreshTokenExpiresAt: null,
        scope: null,
        password: passwordHash,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
  };
  await inTransaction(db, insertBoth);
  return { id, name: input.name, email };
}

export async function findUserByEmail(db: DB, email: string): Promise<CreatedAccount | null> {
  const row = await db
    .selectFrom("users")
    .select(["id", "name", "email"])
    .where("email", "=", normalizeEmail(email))
    .executeTakeFirst();
  return row ?? null;
}

/** `locale` (a language code the schema checked: en, si, ta); "" or absent keeps the account's as it is. */
export type Profile = { name: string; phone: string; locale?: string };

/** Updates only the given user's own name and phone; the email never changes. */
export async function updateProfile(
  db: DB,
  userId: string,
  profile: Profile,
  now = currentTime(),
): Promise<Result<AccountCode>> {
  const locale = profile.locale ? { locale: profile.locale } : {};
  return updateOwnAccount(db, userId, { name: profile.name, phone: profile.phone, ...locale }, now);
}

/**
 * The language of an account's emails (ADR 069): the dashboard's offer (ADR 036). The route
 * checks that `locale` is one of ours, as Settings does for `updateProfile`.
 */
export function setEmailLanguage(db: DB, userId: string, locale: string): Promise<Result<AccountCode>> {
  return updateOwnAccount(db, userId, { locale }, currentTime());
}

/** Changes the columns an account may change itself; "account.not_found" when it is gone. */
async function updateOwnAccount(
  db: DB,
  userId: string,
  changes: { name?: string; phone?: string; locale?: string },
  now: Date,
): Promise<Result<AccountCode>> {
  const result = await db
    .updateTable("users")
    .set({ ...changes, updatedAt: now.toISOString() })
    .where("id", "=", userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n ? { ok: true } : fail("account.not_found");
}
