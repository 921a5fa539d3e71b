import { invalidatePublicPages } from "~/cache/invalidation.server";
import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { normalizeEmail } from "~/lib/email";
import { HIDDEN_BY_SUSPENSION, HIDDEN_STATUS } from "~/schemas/listing-status";
import { storeMessage } from "~/schemas/message";
import { type AccountCode, fail, type Result } from "~/schemas/result";
import { audit } from "./audit-log.server";
import { inTransaction } from "./in-transaction.server";
import { hiddenColumns, restoredColumns } from "./listing-hide.server";
import { changed, moderationAction, refuse, refuseUnchanged } from "./moderation-action.server";

/** Accounts under moderation: suspending and reinstating owners, granting and taking back the moderator role. */

export type Role = "owner" | "moderator";

export type SetRoleResult = Result<AccountCode, { changed: boolean; name: string }>;

/** `npm run user:role`: grants or takes back the moderator role (audited, actor: the command line). */
export async function setUserRole(db: DB, email: string, role: Role, now = currentTime()): Promise<SetRoleResult> {
  return inTransaction(db, async (trx): Promise<SetRoleResult> => {
    const user = await trx
      .selectFrom("users")
      .select(["id", "name", "role"])
      .where("email", "=", normalizeEmail(email))
      .executeTakeFirst();
    if (!user) return fail("account.unknown_email");
    if (user.role === role) return { ok: true, changed: false, name: user.name };
    const at = now.toISOString();
    await trx.updateTable("users").set({ role, updatedAt: at }).where("id", "=", user.id).execute();
    await audit(
      trx,
      null,
      "user.role",
      { type: "user", id: user.id },
      storeMessage({ key: role === "moderator" ? "admin.audit.roleGranted" : "admin.audit.roleRevoked" }),
      at,
    );
    return { ok: true, changed: true, name: user.name };
  });
}

/**
 * Suspends an owner: they cannot sign in, their sessions end, and every
 * listing of theirs leaves public view whatever its state (hiddenBy
 * 'suspension', so reinstating brings back exactly those, each to the state
 * it had: ADR 063). Moderators cannot be suspended (take the role back
 * first), nor can a moderator suspend themselves.
 */
export const suspendUser = moderationAction<string, string>(async (trx, { id: userId, actor, reason, now, at }) => {
  if (actor && actor.id === userId) refuse("moderation.own_account");
  const user = await trx.selectFrom("users").select(["role", "status"]).where("id", "=", userId).executeTakeFirst();
  if (!user) refuse("moderation.not_found");
  if (user.role === "moderator") refuse("moderation.target_is_moderator");
  const updated = await trx
    .updateTable("users")
    .set({ status: "suspended", updatedAt: at })
    .where("id", "=", userId)
    .where("status", "=", "active")
    .where("role", "=", "owner")
    .executeTakeFirst();
  if (!changed(updated)) refuse("moderation.conflict");
  await trx.deleteFrom("sessions").where("userId", "=", userId).execute();
  // Every state the public could see or a review could publish (ADR 063); those hidden
  // already stay hidden by whoever hid them.
  await trx
    .updateTable("listings")
    .set(hiddenColumns("suspension", reason, at))
    .where("userId", "=", userId)
    .where("status", "in", [...HIDDEN_BY_SUSPENSION])
    .execute();
  await invalidatePublicPages(trx, "all", now);
  await audit(trx, actor, "user.suspend", { type: "user", id: userId }, reason, at);
});

/** Lets a suspended owner sign in again; only the listings the suspension hid come back, each as it was. */
export const reinstateUser = moderationAction<string, string | null>(
  async (trx, { id: userId, actor, reason, now, at }) => {
    const updated = await trx
      .updateTable("users")
      .set({ status: "active", updatedAt: at })
      .where("id", "=", userId)
      .where("status", "=", "suspended")
      .executeTakeFirst();
    if (!changed(updated)) await refuseUnchanged(trx, "users", userId);
    await trx
      .updateTable("listings")
      .set(restoredColumns(at))
      .where("userId", "=", userId)
      .where("status", "=", HIDDEN_STATUS)
      .where("hiddenBy", "=", "suspension")
      .execute();
    await invalidatePublicPages(trx, "all", now);
    await audit(trx, actor, "user.reinstate", { type: "user", id: userId }, reason, at);
  },
);
