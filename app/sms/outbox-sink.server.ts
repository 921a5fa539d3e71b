import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import type { TextProvider } from "./gateway.server";

/**
 * Development and tests: a text is not sent but kept in the outbox table as
 * 'logged' with kind 'sms', so /dev/outbox lists it beside the emails and a
 * test can read the code, and printed to the log, where whoever runs a local
 * copy with `npm start` reads it. The mail sender only takes 'pending' rows,
 * so it never mails one. A public site refuses this sink at start-up (ADR 075).
 */
export function createOutboxSink(db: DB, log?: Logger): TextProvider {
  return {
    kind: "text",
    name: "outbox",
    async send({ to, text }) {
      const at = currentTime().toISOString();
      await db
        .insertInto("outbox")
        .values({
          id: randomUUID(),
          kind: "sms",
          to,
          replyTo: null,
          subject: "SMS",
          text,
          html: null,
          headers: null,
          status: "logged",
          claimedBy: null,
          attempts: 0,
          lastError: null,
          nextAttemptAt: at,
          sentAt: at,
          createdAt: at,
        })
        .execute();
      log?.info({ sms: { to, text } }, "SMS not sent (SMS_URL is the outbox): kept in the outbox");
    },
  };
}
