import nodemailer from "nodemailer";
import type { Logger } from "pino";
import type { OutboxMessage } from "~/models/outbox.server";
import { redactUrl } from "~/security/redact-url";

/**
 * Where outbox messages go. `deliver` resolves with what happened to the
 * message, or throws so the sender retries it later.
 */
export type MailTransport = {
  name: "smtp" | "log";
  deliver: (message: OutboxMessage) => Promise<"sent" | "logged">;
  close: () => void;
};

/** The message's stored extra headers (a JSON object of strings), or none. */
export function extraHeaders(stored: string | null): Record<string, string> | undefined {
  if (!stored) return undefined;
  const parsed: unknown = JSON.parse(stored);
  if (!parsed || typeof parsed !== "object") return undefined;
  return Object.fromEntries(
    Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

/** SMTP_URL is smtp://user:pass@host:port (STARTTLS when offered) or smtps:// (TLS from the start). */
export function createSmtpTransport(url: string, from: string): MailTransport {
  // Short timeouts: a hung server must fail the attempt (and be retried), not stall the sender for minutes.
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
  return {
    name: "smtp",
    async deliver(message) {
      await transporter.sendMail({
        from,
        to: message.to,
        replyTo: message.replyTo ?? undefined,
        subject: message.subject,
        text: message.text,
        html: message.html ?? undefined,
        headers: extraHeaders(message.headers),
      });
      return "sent";
    },
    close: () => transporter.close(),
  };
}

/**
 * Without SMTP_URL nothing is sent: each message is printed to the server log
 * once (so a developer or operator can read it) and stays in the outbox as 'logged'.
 * With `redactLinks` (a public site) the secrets in its links (reset tokens)
 * are redacted first: whoever reads the log must not be able to reset a password.
 */
export function createLogTransport(log: Logger, options: { redactLinks?: boolean } = {}): MailTransport {
  return {
    name: "log",
    async deliver(message) {
      const text = options.redactLinks
        ? message.text.replace(/https?:\/\/\S+/g, (url) => redactUrl(url))
        : message.text;
      log.info(
        {
          mail: {
            id: message.id,
            kind: message.kind,
            to: message.to,
            replyTo: message.replyTo,
            subject: message.subject,
            text,
          },
        },
        "mail not sent (no SMTP_URL); kept in the outbox",
      );
      return "logged";
    },
    close: () => {},
  };
}

export function createMailTransport(options: {
  smtpUrl?: string;
  from: string;
  log: Logger;
  redactLinks?: boolean;
}): MailTransport {
  return options.smtpUrl
    ? createSmtpTransport(options.smtpUrl, options.from)
    : createLogTransport(options.log, { redactLinks: options.redactLinks });
}
