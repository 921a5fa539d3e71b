import { randomUUID } from "node:crypto";
import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import type { ContactInput } from "~/schemas/contact";

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
