import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { DB } from "~/db/db.server";

/**
 * Job leases (ADR 039): a background job runs in one process at a
 * time, however many processes and servers share the database. A row per job
 * in `job_leases` (migration 013) says who holds it until when and, for timed
 * jobs, when it is next due; a process takes it with one conditional UPDATE,
 * so of several racing exactly one sees a changed row. A holder that dies
 * simply stops renewing: its lease runs out and another process takes over.
 *
 * Leases run on real time, never on NOW (app/lib/clock.ts): a job tried by hand
 * on another day must not hold a lease until that day.
 */

/** This process's name in `job_leases.holder`: host, pid and a random part (pids repeat after restarts). */
export const PROCESS_HOLDER = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

export type LeaseOptions = {
  /** How long the lease lasts unless renewed. */
  leaseMs: number;
  /** A timed job: taken only when due, and due again `everyMs` after this run starts. */
  everyMs?: number;
  /** When a timed job first falls due if no process has run it yet. */
  firstRunAt?: Date;
};

const iso = (ms: number) => new Date(ms).toISOString();

/** Takes the job's lease for `holder` when nobody else holds it (and, for a timed job, when it is due). */
export async function takeJobLease(db: DB, name: string, holder: string, options: LeaseOptions): Promise<boolean> {
  const now = Date.now();
  await db
    .insertInto("job_leases")
    .values({
      name,
      holder: null,
      leaseUntil: null,
      nextRunAt: iso(options.firstRunAt?.getTime() ?? now),
      lastRunAt: null,
    })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  let claim = db
    .updateTable("job_leases")
    .set({
      holder,
      leaseUntil: iso(now + options.leaseMs),
      lastRunAt: iso(now),
      ...(options.everyMs ? { nextRunAt: iso(now + options.everyMs) } : {}),
    })
    .where("name", "=", name)
    .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<=", iso(now)), eb("holder", "=", holder)]));
  if (options.everyMs) claim = claim.where("nextRunAt", "<=", iso(now));
  const result = await claim.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Extends the lease while the job runs; false when it has been lost (it ran out and another process took it). */
export async function renewJobLease(db: DB, name: string, holder: string, leaseMs: number): Promise<boolean> {
  const result = await db
    .updateTable("job_leases")
    .set({ leaseUntil: iso(Date.now() + leaseMs) })
    .where("name", "=", name)
    .where("holder", "=", holder)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives the lease up (a timed job keeps its next due time). */
export async function releaseJobLease(db: DB, name: string, holder: string): Promise<void> {
  await db
    .updateTable("job_leases")
    .set({ holder: null, leaseUntil: null })
    .where("name", "=", name)
    .where("holder", "=", holder)
    .execute();
}

/**
 * Runs `work` under the job's lease: null (nothing run) when another process
 * holds it or it is not due. The lease is renewed every third of its length
 * while the work runs and given up after it, whatever the outcome.
 */
export async function withJobLease<T>(
  db: DB,
  name: string,
  holder: string,
  options: LeaseOptions,
  work: () => Promise<T>,
): Promise<T | null> {
  if (!(await takeJobLease(db, name, holder, options))) return null;
  const heartbeat = setInterval(
    () => void renewJobLease(db, name, holder, options.leaseMs).catch(() => undefined),
    Math.max(1, Math.floor(options.leaseMs / 3)),
  );
  heartbeat.unref();
  try {
    return await work();
  } finally {
    clearInterval(heartbeat);
    await releaseJobLease(db, name, holder).catch(() => undefined);
  }
}
