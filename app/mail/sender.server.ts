import type { Logger } from "pino";
import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { claimDueMail, markMailAttemptFailed, markMailDelivered, outboxEvents } from "~/models/outbox.server";
import type { MailTransport } from "./transport.server";

export type DeliveryReport = { delivered: number; retrying: number; failed: number };

/**
 * Sends every outbox message due at `now` once; failures are recorded for a
 * later retry. All times in a run are `now`, so a failed message is never
 * retried within the same run.
 */
export async function deliverDueMail(
  db: DB,
  transport: MailTransport,
  log: Logger,
  now = currentTime(),
): Promise<DeliveryReport> {
  const report: DeliveryReport = { delivered: 0, retrying: 0, failed: 0 };
  for (;;) {
    const batch = await claimDueMail(db, now);
    if (batch.length === 0) return report;
    for (const message of batch) {
      try {
        const outcome = await transport.deliver(message);
        await markMailDelivered(db, message.id, outcome, now);
        report.delivered++;
        log.info({ mailId: message.id, kind: message.kind, outcome }, "mail delivered");
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const status = await markMailAttemptFailed(db, message, reason, now);
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

export type MailSender = { wake: () => void; stop: () => void };

/**
 * Delivers the outbox in the background: every `intervalMs`, and at once when
 * a message is queued in this process. Runs never overlap, errors are logged
 * and never escape, and the timer is unref'd so it never keeps a process alive.
 */
export function startMailSender(options: {
  db: DB;
  transport: MailTransport;
  log: Logger;
  intervalMs?: number;
}): MailSender {
  const { db, transport, log, intervalMs = 5_000 } = options;
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
    try {
      await deliverDueMail(db, transport, log);
    } catch (error) {
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
    stop() {
      stopped = true;
      clearTimeout(timer);
      outboxEvents.off("queued", wake);
      transport.close();
    },
  };
}
