import { randomUUID } from "node:crypto";
import type { DB } from "../db/db.server";
import { t } from "../i18n";
import type { ContactInput } from "../schemas/contact";
import { enqueueMail } from "./outbox.server";
import "virtual:catalogue/mail";
import { currentTime } from "../lib/clock";

export type StoredContactMessage = { id: string; createdAt: string };

/**
 * Stores a message from the contact form (already validated by
 * `contactSchema`). The form only reports success after this resolves.
 */
export async function saveContactMessage(
  db: DB,
  input: ContactInput,
  now = currentTime(),
): Promise<StoredContactMessage> {
  const stored = { id: randomUUID(), createdAt: now.toISOString() };
  await db
    .insertInto("contact_messages")
    .values({
      ...stored,
      name: input.name,
      email: input.email,
      subject: input.subject,
      message: input.message,
      status: "new",
    })
    .execute();
  return stored;
}

/**
 * Emails a stored contact message to support through the outbox, with
 * Reply-To set to the sender so support can answer directly.
 */
export async function emailContactMessageToSupport(
  db: DB,
  site: { supportEmail: string; siteName: string; siteUrl: string },
  input: ContactInput,
  stored: StoredContactMessage,
): Promise<string> {
  const values = {
    ...input,
    siteName: site.siteName,
    siteUrl: site.siteUrl,
    id: stored.id,
    receivedAt: stored.createdAt,
  };
  return enqueueMail(db, {
    kind: "contact",
    to: site.supportEmail,
    replyTo: input.email,
    // A name with line breaks must not make a multi-line subject.
    subject: t("mail.contact.subject", values).replace(/\s+/g, " "),
    text: t("mail.contact.text", values),
  });
}
