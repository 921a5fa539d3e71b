import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { type Failure, fail, type ModerationCode, type Result } from "~/schemas/result";
import type { Actor } from "./audit-log.server";
import { inTransaction } from "./in-transaction.server";

/**
 * How every moderation action runs (ADR 008): it changes its rows and writes its audit_log row in one
 * transaction, and each change is conditional on the state it expects, so two
 * moderators acting at once cannot both succeed.
 */

export type ModerationResult = Result<ModerationCode>;

/** Rolls the transaction back with a failure (thrown by `refuse`, caught by `moderate`). */
class Refusal extends Error {
  readonly result: Failure<ModerationCode>;
  constructor(result: Failure<ModerationCode>) {
    super(result.code);
    this.result = result;
  }
}

/** Ends the action inside `moderate`: its transaction rolls back and `code` is the answer. */
export function refuse(code: ModerationCode): never {
  throw new Refusal(fail(code));
}

/**
 * Runs one moderation action in a transaction, at `now` (`at` is its ISO
 * time for the rows it writes); `refuse` inside it rolls it back and is the answer.
 */
export async function moderate(
  db: DB,
  now: Date,
  work: (trx: DB, at: string) => Promise<void>,
): Promise<ModerationResult> {
  try {
    await inTransaction(db, (trx) => work(trx, now.toISOString()));
    return { ok: true };
  } catch (error) {
    if (error instanceof Refusal) return error.result;
    throw error;
  }
}

/** What one action on one row is told: who acts, on which row, why, and when (`at`: `now` as ISO text). */
export type ModerationCall<Id, Reason> = { actor: Actor; id: Id; reason: Reason; now: Date; at: string };

/**
 * An action a moderator takes on one row (a listing, an account), called as
 * `(db, actor, id, reason, now?)`, like the admin screens call them all;
 * `work` runs inside `moderate`.
 */
export function moderationAction<Id extends string | number, Reason extends string | null>(
  work: (trx: DB, call: ModerationCall<Id, Reason>) => Promise<void>,
): (db: DB, actor: Actor, id: Id, reason: Reason, now?: Date) => Promise<ModerationResult> {
  return (db, actor, id, reason, now = currentTime()) =>
    moderate(db, now, (trx, at) => work(trx, { actor, id, reason, now, at }));
}

/** Nothing changed: a conflict when the row is there (someone acted first), else not found. */
export async function refuseUnchanged(
  db: DB,
  table: "reports" | "listings" | "users",
  id: string | number,
): Promise<never> {
  const row = await db
    .selectFrom(table)
    .select("id")
    .where("id", "=", id as never)
    .executeTakeFirst();
  return refuse(row ? "moderation.conflict" : "moderation.not_found");
}

export function changed(result: { numUpdatedRows: bigint }): boolean {
  return Number(result.numUpdatedRows) > 0;
}
