import type { DB } from "~/db/db.server";
import type { Translator } from "~/i18n";
import { translatorFor } from "~/i18n/translator.server";
import type { StoredContactMessage } from "~/models/contact.server";
import { enqueueMail, type MailText } from "~/models/outbox.server";
import type { ContactInput } from "~/schemas/contact";
import "virtual:catalogue/mail";

export type Site = { supportEmail: string; siteName: string; siteUrl: string };

/** Support's copy of a contact message, in the words of translator `t` (ADR 028). */
export function contactMail(t: Translator, site: Site, input: ContactInput, stored: StoredContactMessage): MailText {
  const values = {
    ...input,
    siteName: site.siteName,
    siteUrl: site.siteUrl,
    id: stored.id,
    receivedAt: stored.createdAt,
  };
  return {
    // A name with line breaks must not make a multi-line subject.
    subject: t("mail.contact.subject", values).replace(/\s+/g, " "),
    text: t("mail.contact.text", values),
  };
}

/**
 * Emails a stored contact message to support through the outbox, with
 * Reply-To set to the sender so support can answer directly.
 */
export function emailContactMessageToSupport(
  db: DB,
  site: Site,
  input: ContactInput,
  stored: StoredContactMessage,
  t: Translator = translatorFor("en"),
): Promise<string> {
  return enqueueMail(db, {
    kind: "contact",
    to: site.supportEmail,
    replyTo: input.email,
    ...contactMail(t, site, input, stored),
  });
}
