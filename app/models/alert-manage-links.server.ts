import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { normalizeEmail } from "~/lib/email";
import { manageKeyOf, newManageToken } from "~/security/alert-token.server";

/**
 * Alert manage links (ADR 067): random, stored as their SHA-256, good for
 * MANAGE_LINK_DAYS, revocable. Every alert email carries a fresh one, and so
 * does the page a confirmed, signed-in owner of the address opens from
 * Settings. A new link revokes none; a revoke ends them all.
 */

export const MANAGE_LINK_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What a manage link is:
 * - valid: it opens the address's alerts;
 * - expired: it was ours but is older than MANAGE_LINK_DAYS;
 * - old: one of the signed links of ADR 058, which no longer open anything;
 * - unknown: made up, altered, revoked or long gone.
 * `expired` and `old` name the address, so their page can offer to email it a fresh link.
 */
export type ManageLink = { state: "valid" | "expired" | "old"; email: string } | { state: "unknown"; email: null };

/** Makes a link for an address and returns its token (the database keeps only the hash). */
export async function issueManageLink(db: DB, email: string, now = currentTime()): Promise<string> {
  const token = newManageToken();
  await db
    .insertInto("alert_manage_links")
    .values({
      tokenHash: manageKeyOf(token) as string,
      email: normalizeEmail(email),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + MANAGE_LINK_DAYS * DAY_MS).toISOString(),
    })
    .execute();
  return token;
}

export async function readManageLink(db: DB, token: string, now = currentTime()): Promise<ManageLink> {
  const key = manageKeyOf(token);
  if (!key) return { state: "unknown", email: null };
  const link = await db
    .selectFrom("alert_manage_links")
    .select(["email", "expiresAt"])
    .where("tokenHash", "=", key)
    .executeTakeFirst();
  if (link) return { state: link.expiresAt > now.toISOString() ? "valid" : "expired", email: link.email };
  // An old signed link: the alerts made before ADR 067 keep its hash.
  const old = await db
    .selectFrom("search_alerts")
    .select("email")
    .where("manageKey", "=", key)
    .limit(1)
    .executeTakeFirst();
  return old ? { state: "old", email: old.email } : { state: "unknown", email: null };
}

/** 'Sign out of these links': every manage link of the address stops working; returns how many. */
export async function revokeManageLinks(db: DB, email: string): Promise<number> {
  const result = await db
    .deleteFrom("alert_manage_links")
    .where("email", "=", normalizeEmail(email))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes links expired more than MANAGE_LINK_DAYS ago (until then an expired
 * link's page can still offer a fresh one).
 */
export async function removeOldManageLinks(db: DB, now = currentTime()): Promise<number> {
  const before = new Date(now.getTime() - MANAGE_LINK_DAYS * DAY_MS).toISOString();
  const result = await db.deleteFrom("alert_manage_links").where("expiresAt", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
