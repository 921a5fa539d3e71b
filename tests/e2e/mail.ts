import fs from "node:fs";
import path from "node:path";
import type { ReceivedMail } from "../parse-mail";

// Reads what the test SMTP sink (tests/smtp-sink.ts) received. Every test
// shares one sink, so filter by a recipient or subject unique to your test.

export type { ReceivedMail };
export type MailFilter = { to?: string; subject?: string | RegExp; since?: Date };

function sinkDir(): string {
  const dir = process.env.SMTP_SINK_DIR;
  if (!dir) throw new Error("SMTP_SINK_DIR is not set (playwright.config.ts sets it)");
  return dir;
}

function matches(mail: ReceivedMail, filter: MailFilter): boolean {
  if (filter.to && !mail.to.some((to) => to.toLowerCase() === filter.to!.toLowerCase())) return false;
  if (typeof filter.subject === "string" && !mail.subject.includes(filter.subject)) return false;
  if (filter.subject instanceof RegExp && !filter.subject.test(mail.subject)) return false;
  return true;
}

/** Received messages matching the filter, oldest first. */
export function readMails(filter: MailFilter = {}): ReceivedMail[] {
  const dir = sinkDir();
  if (!fs.existsSync(dir)) return [];
  const since = filter.since?.getTime() ?? 0;
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".json") && !name.startsWith(".") && Number(name.split("-")[0]) >= since)
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as ReceivedMail)
    .filter((mail) => matches(mail, filter));
}

/** The newest message to `to` whose subject matches, waiting up to `timeoutMs` for it. */
export async function waitForMail(to: string, subject?: string | RegExp, timeoutMs = 10_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readMails({ to, subject });
    if (found.length > 0) return found[found.length - 1];
    if (Date.now() > deadline)
      throw new Error(`No email to ${to}${subject ? ` matching ${subject}` : ""} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
