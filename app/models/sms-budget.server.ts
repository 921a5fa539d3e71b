import type { DB } from "~/db/db.server";

/**
 * Spends one text of the site's budget for `now`'s UTC day, atomically (one
 * conditional UPDATE, so parallel requests on any number of servers cannot pass
 * it). False once `budget` texts were sent that day: fail closed (ADR 076).
 */
export async function spendSmsBudget(db: DB, now: Date, budget: number): Promise<boolean> {
  const day = now.toISOString().slice(0, 10);
  await db
    .insertInto("sms_budget")
    .values({ day, sent: 0 })
    .onConflict((oc) => oc.column("day").doNothing())
    .execute();
  const spent = await db
    .updateTable("sms_budget")
    .set((eb) => ({ sent: eb("sent", "+", 1) }))
    .where("day", "=", day)
    .where("sent", "<", budget)
    .executeTakeFirst();
  return Number(spent.numUpdatedRows) === 1;
}

/** Texts sent on `now`'s UTC day (for the log and the tests). */
export async function smsSentOn(db: DB, now: Date): Promise<number> {
  const row = await db
    .selectFrom("sms_budget")
    .select("sent")
    .where("day", "=", now.toISOString().slice(0, 10))
    .executeTakeFirst();
  return row?.sent ?? 0;
}
