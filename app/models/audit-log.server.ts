import type { DB } from "~/db/db.server";
import { paginate } from "~/lib/pagination";
import { readReason } from "~/schemas/message";
import type { AuditAction, AuditPage } from "~/schemas/moderation-view";

/** Who did what to which listing, account or report, and why: every moderation action writes one row. */

export type { AuditAction };

/** Who acts: a signed-in moderator, or null for the command line / the system. */
export type Actor = { id: string; email: string } | null;

/** Writes one audit_log row; call it inside the transaction that made the change. */
export async function audit(
  db: DB,
  actor: Actor,
  action: AuditAction,
  target: { type: "listing" | "user" | "report"; id: string | number },
  reason: string | null,
  now: string,
) {
  await db
    .insertInto("audit_log")
    .values({
      id: crypto.randomUUID(),
      actorId: actor?.id ?? null,
      actorEmail: actor?.email ?? null,
      action,
      targetType: target.type,
      targetId: String(target.id),
      reason: reason || null,
      createdAt: now,
    })
    .execute();
}

/**
 * Actions whose reason the system writes as a stored message (ADR 028), shown in
 * the reader's language; older "user.role" rows hold English text and are shown as written.
 */
const SYSTEM_REASONS: ReadonlySet<AuditAction> = new Set(["listing.auto-hide", "user.role"]);

/** The audit log, newest first. */
export async function listAuditLog(db: DB, options: { page: number; limit: number }): Promise<AuditPage> {
  const countRow = await db
    .selectFrom("audit_log")
    .select((eb) => eb.fn.countAll().as("count"))
    .executeTakeFirst();
  const pagination = paginate(options.page, options.limit, Number(countRow?.count ?? 0));
  const rows = await db
    .selectFrom("audit_log")
    .select(["id", "actorEmail", "action", "targetType", "targetId", "reason", "createdAt"])
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(options.limit)
    .offset((options.page - 1) * options.limit)
    .execute();
  const ids = (type: string) => [...new Set(rows.filter((r) => r.targetType === type).map((r) => r.targetId))];
  const listingIds = ids("listing").map(Number).filter(Number.isSafeInteger);
  const userIds = ids("user");
  const titles = listingIds.length
    ? await db.selectFrom("listings").select(["id", "title"]).where("id", "in", listingIds).execute()
    : [];
  const emails = userIds.length
    ? await db.selectFrom("users").select(["id", "email"]).where("id", "in", userIds).execute()
    : [];
  const labels = new Map<string, string>([
    ...titles.map((l) => [`listing:${l.id}`, l.title] as const),
    ...emails.map((u) => [`user:${u.id}`, u.email] as const),
  ]);
  const entries = rows.map((row) => {
    // audit() writes only AuditAction values.
    const action = row.action as AuditAction;
    return {
      ...row,
      action,
      reason: row.reason === null ? null : readReason(row.reason, SYSTEM_REASONS.has(action)),
      targetLabel: labels.get(`${row.targetType}:${row.targetId}`) ?? null,
    };
  });
  return { entries, pagination };
}
