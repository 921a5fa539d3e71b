import type { Logger } from "pino";
import type { DB } from "~/db/db.server";
import { PROCESS_HOLDER, withJobLease } from "~/jobs/lease.server";
import { currentTime } from "~/lib/clock";
import { jobRuns } from "~/lib/metrics.server";
import {
  claimDueMail,
  markMailAttemptFailed,
  markMailDelivered,
  newSenderId,
  outboxEvents,
  renewMailClaim,
} from "~/models/outbox.server";
import type { MailTransport } from "./transport.server";

export type DeliveryReport = { delivered: number; retrying: number; failed: number; lostClaims?: number };

/**
 * Sends every outbox message due at `now` once; failures are recorded for a
 * later retry. All times in a run are `now`, so a failed message is never
 * retried within the same run. Before each message the sender renews its claim
 * on it: a message whose claim another sender took over (this run was slower
 * than the lease) is left to that sender, never sent twice (ADR 039).
 */
export async function deliverDueMail(
  db: DB,
  transport: MailTransport,
  log: Logger,
  now = currentTime(),
  sender = newSenderId(),
): Promise<DeliveryReport> {
  const report: DeliveryReport = { delivered: 0, retrying: 0, failed: 0 };
  for (;;) {
    const batch = await claimDueMail(db, now, sender);
    if (batch.length === 0) return report;
    for (const message of batch) {
      // Renewed from the later of the run's time and the clock's: a long run moves on.
      const renewAt = new Date(Math.max(now.getTime(), currentTime().getTime()));
      if (!(await renewMailClaim(db, message.id, sender, renewAt))) {
        report.lostClaims = (report.lostClaims ?? 0) + 1;
        log.warn({ mailId: message.id }, "mail claim taken over by another sender: not sent here");
        continue;
      }
      try {
        const outcome = await transport.deliver(message);
        await markMailDelivered(db, message.id, outcome, now, sender);
        report.delivered++;
        log.info({ mailId: message.id, kind: message.kind, outcome }, "mail delivered");
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const status = await markMailAttemptFailed(db, message, reason, now, sender);
        if (status === "failed") report.failed++;
        else report.retrying++;
        log.warn(
          { mailId: message.id, kind: message.kind, attempt: message.attempts + 1, status, err: reason },
          "mail delivery failed",
        );
      }
    }
  }
}

export type MailSender = { wake: () => void; stop: () => Promise<void> };

/** The sender's lease: one process sends at a time; a crashed sender's lease runs out within a minute. */
export const SENDER_LEASE_MS = 60_000;

/**
 * Delivers the outbox in the background: every `intervalMs`, and at once when
 * a message is queued in this process. Of all processes and servers sharing
 * the database one sends at a time (the "send-mail" job lease, ADR 039); the
 * others find it held and look again at their next poll. Runs never overlap,
 * errors are logged and never escape, and the timer is unref'd so it never
 * keeps a process alive.
 */
export function startMailSender(options: {
  db: DB;
  transport: MailTransport;
  log: Logger;
  intervalMs?: number;
  holder?: string;
}): MailSender {
  const { db, transport, log, intervalMs = 5_000, holder = PROCESS_HOLDER } = options;
  let current: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let stopped = false;

  function schedule(delay: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, delay);
    timer.unref();
  }

  async function run() {
    if (running) {
      again = true;
      return;
    }
    running = true;
    const done = withJobLease(db, "send-mail", holder, { leaseMs: SENDER_LEASE_MS }, () =>
      deliverDueMail(db, transport, log),
    );
    current = done.then(
      () => undefined,
      () => undefined,
    );
    try {
      if ((await done) !== null) jobRuns.inc({ job: "send-mail", outcome: "done" });
    } catch (error) {
      jobRuns.inc({ job: "send-mail", outcome: "failed" });
      log.error({ err: error }, "mail sender run failed");
    } finally {
      running = false;
    }
    if (again) {
      again = false;
      schedule(0);
    } else {
      schedule(intervalMs);
    }
  }

  const wake = () => schedule(0);
  outboxEvents.on("queued", wake);
  schedule(0);
  return {
    wake,
    /** Stops polling, lets a run under way finish (its lease is then given up) and closes the transport. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      outboxEvents.off("queued", wake);
      await current;
      transport.close();
    },
  };
}
