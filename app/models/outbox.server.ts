import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import type { Selectable } from "kysely";
import type { DB } from "~/db/db.server";
import type { OutboxTable } from "~/db/schema";
import { currentTime } from "~/lib/clock";

export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** Extra headers, e.g. List-Unsubscribe (ADR 058). */
  headers?: Record<string, string>;
  /** What the message is for, e.g. 'password-reset', 'contact'. */
  kind: string;
};

/** The words of an email, composed with the recipient's translator (app/mail/). */
export type MailText = Pick<OutgoingMail, "subject" | "text">;

/**
 * pending: waiting for (another) attempt; sending: claimed by a sender until
 * nextAttemptAt (a lease, so a crashed process's claim expires); sent: handed
 * to the SMTP server; logged: no SMTP_URL, printed to the server log instead
 * (kept, never sent later: its links may have expired); failed: gave up.
 */
export type OutboxStatus = "pending" | "sending" | "sent" | "logged" | "failed";
export type OutboxMessage = Selectable<OutboxTable>;

/** Delays after the 1st, 2nd, … failed attempt; the last repeats. */
export const RETRY_DELAYS_MS = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
  24 * 3_600_000,
];
export const MAX_ATTEMPTS = 8;
/** How long a claim lasts before another sender may take the message over. */
export const CLAIM_LEASE_MS = 5 * 60_000;

/** Lets the in-process sender go at once instead of waiting for its next poll. */
export const outboxEvents = new EventEmitter();

/**
 * Stores a message in the outbox; the sender delivers it from there with
 * retries. Resolves once it is stored, not when it is sent.
 */
export async function enqueueMail(db: DB, mail: OutgoingMail, now = currentTime()): Promise<string> {
  const id = randomUUID();
  const at = now.toISOString();
  await db
    .insertInto("outbox")
    .values({
      id,
      kind: mail.kind,
      to: mail.to,
      replyTo: mail.replyTo ?? null,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      headers: mail.headers ? JSON.stringify(mail.headers) : null,
      status: "pending",
      claimedBy: null,
      attempts: 0,
      lastError: null,
      nextAttemptAt: at,
      sentAt: null,
      createdAt: at,
    })
    .execute();
  outboxEvents.emit("queued", id);
  return id;
}

/** A name for one sender's claims: a sender only finishes messages claimed under its own name. */
export function newSenderId(): string {
  return `sender-${process.pid}-${randomUUID()}`;
}

/**
 * Claims up to `limit` due messages for `holder`. Each claim is a conditional
 * UPDATE on the row's status and nextAttemptAt as read, so when several
 * processes race only one of them sees an updated row. A claim lasts
 * CLAIM_LEASE_MS; after that another sender may take the message over.
 */
export async function claimDueMail(
  db: DB,
  now = currentTime(),
  holder = newSenderId(),
  limit = 20,
): Promise<OutboxMessage[]> {
  const at = now.toISOString();
  const due = await db
    .selectFrom("outbox")
    .selectAll()
    .where("status", "in", ["pending", "sending"])
    .where("nextAttemptAt", "<=", at)
    .orderBy("nextAttemptAt")
    .limit(limit)
    .execute();
  const lease = new Date(now.getTime() + CLAIM_LEASE_MS).toISOString();
  const claimed: OutboxMessage[] = [];
  for (const message of due) {
    const result = await db
      .updateTable("outbox")
      .set({ status: "sending", nextAttemptAt: lease, claimedBy: holder })
      .where("id", "=", message.id)
      .where("status", "=", message.status)
      .where("nextAttemptAt", "=", message.nextAttemptAt)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1)
      claimed.push({ ...message, status: "sending", nextAttemptAt: lease, claimedBy: holder });
  }
  return claimed;
}

/**
 * Right before a message is handed to the mail server: renews `holder`'s claim
 * for another CLAIM_LEASE_MS, or answers false when the claim has been taken
 * over (this sender was too slow and its lease ran out): then it must not send.
 */
export async function renewMailClaim(db: DB, id: string, holder: string, now = currentTime()): Promise<boolean> {
  const result = await db
    .updateTable("outbox")
    .set({ nextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS).toISOString() })
    .where("id", "=", id)
    .where("status", "=", "sending")
    .where("claimedBy", "=", holder)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks a message delivered; with `holder`, only while that sender still holds its claim. */
export async function markMailDelivered(
  db: DB,
  id: string,
  status: "sent" | "logged",
  now = currentTime(),
  holder?: string,
): Promise<void> {
  let update = db
    .updateTable("outbox")
    .set({
      status,
      sentAt: now.toISOString(),
      attempts: (eb) => eb("attempts", "+", 1),
      lastError: null,
      claimedBy: null,
    })
    .where("id", "=", id);
  if (holder) update = update.where("claimedBy", "=", holder);
  await update.execute();
}

/** Emails waiting to be sent: pending, or claimed by a sender (the outbox backlog on /metrics). */
export async function countOutboxBacklog(db: DB): Promise<number> {
  const row = await db
    .selectFrom("outbox")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "in", ["pending", "sending"])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Records a failed attempt: retries later with backoff, or gives up after MAX_ATTEMPTS. */
export async function markMailAttemptFailed(
  db: DB,
  message: Pick<OutboxMessage, "id" | "attempts">,
  error: string,
  now = currentTime(),
  holder?: string,
): Promise<OutboxStatus> {
  const attempts = message.attempts + 1;
  const status: OutboxStatus = attempts >= MAX_ATTEMPTS ? "failed" : "pending";
  const delay = RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1];
  let update = db
    .updateTable("outbox")
    .set({
      status,
      attempts,
      lastError: error.slice(0, 1000),
      nextAttemptAt: new Date(now.getTime() + delay).toISOString(),
      claimedBy: null,
    })
    .where("id", "=", message.id);
  if (holder) update = update.where("claimedBy", "=", holder);
  await update.execute();
  return status;
}

export async function listRecentMail(db: DB, limit = 50): Promise<OutboxMessage[]> {
  return db.selectFrom("outbox").selectAll().orderBy("createdAt", "desc").orderBy("id").limit(limit).execute();
}

/** How long the text of a delivered message is kept (a reset link is dead long before). */
export const SENT_MAIL_BODY_DAYS = 7;

/**
 * Blanks the text and HTML of messages delivered (sent, or logged without
 * SMTP_URL) more than SENT_MAIL_BODY_DAYS ago: the row stays as a record of
 * who was mailed what kind of message and when, but no longer carries reset
 * links or what people wrote. Messages still waiting or given up on keep
 * their text. Returns how many rows were blanked.
 */
export async function purgeSentMailBodies(db: DB, now = currentTime()): Promise<number> {
  const before = new Date(now.getTime() - SENT_MAIL_BODY_DAYS * 24 * 60 * 60 * 1000).toISOString();
  const result = await db
    .updateTable("outbox")
    .set({ text: "", html: null })
    .where("status", "in", ["sent", "logged"])
    .where("sentAt", "<", before)
    .where((eb) => eb.or([eb("text", "<>", ""), eb("html", "is not", null)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
