import pino from "pino";
import { RouterContextProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { parseEnv } from "../../app/env.server";
import { JOBS } from "../../app/jobs/jobs.server";
import { emailContactMessageToSupport } from "../../app/mail/contact-mail.server";
import { deliverDueMail, startMailSender } from "../../app/mail/sender.server";
import { createLogTransport, createMailTransport, createSmtpTransport } from "../../app/mail/transport.server";
import { saveContactMessage } from "../../app/models/contact.server";
import {
  CLAIM_LEASE_MS,
  claimDueMail,
  enqueueMail,
  MAX_ATTEMPTS,
  markMailDelivered,
} from "../../app/models/outbox.server";
import { action as contactAction } from "../../app/routes/contact";
import { loader as devOutboxLoader } from "../../app/routes/dev.outbox";
import { type RequestInfo, requestContext } from "../../app/services.server";
import { createOutboxSink } from "../../app/sms/outbox-sink.server";
import { captureLog } from "../capture-log";
import { testContext } from "../request-context";
import { closedPort, startTestSmtpServer, type TestSmtpServer } from "../smtp-test-server";
import { describeEachDatabase } from "../test-db";

const silent = pino({ level: "silent" });
const FROM = "Bodima <no-reply@bodima.lk>";
const minutes = (n: number) => n * 60_000;

async function row(db: DB, id: string) {
  return db.selectFrom("outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

const resetMail = {
  kind: "password-reset",
  to: "kasun@example.com",
  subject: "Reset your Bodima password",
  text: "Open https://bodima.lk/reset-password?token=abc to choose a new password.",
};

describe("SMTP_URL and MAIL_FROM", () => {
  it("are optional, with a default sender", () => {
    const env = parseEnv({});
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.MAIL_FROM).toBe("Bodima <no-reply@bodima.lk>");
    expect(parseEnv({ SMTP_URL: "" }).SMTP_URL).toBeUndefined();
  });

  it("accept smtp:// and smtps:// and name anything else clearly", () => {
    expect(parseEnv({ SMTP_URL: "smtps://u:p@mail.example.com:465" }).SMTP_URL).toBe(
      "smtps://u:p@mail.example.com:465",
    );
    expect(() => parseEnv({ SMTP_URL: "mail.example.com:587" })).toThrowError(
      /SMTP_URL: SMTP_URL must start with smtp:\/\/ or smtps:\/\//,
    );
  });
});

describeEachDatabase("mail outbox", (ctx) => {
  let servers: TestSmtpServer[] = [];

  beforeEach(async () => {
    await ctx().db.deleteFrom("outbox").execute();
  });
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });

  async function smtpServer(port?: number) {
    const server = await startTestSmtpServer(port);
    servers.push(server);
    return server;
  }

  it("delivers a queued message through a real SMTP server", async () => {
    const { db } = ctx();
    const server = await smtpServer();
    const transport = createSmtpTransport(`smtp://127.0.0.1:${server.port}`, FROM);
    const id = await enqueueMail(db, { ...resetMail, replyTo: "help@bodima.lk" });
    expect((await row(db, id)).status).toBe("pending");

    const report = await deliverDueMail(db, transport, silent);
    transport.close();

    expect(report).toEqual({ delivered: 1, retrying: 0, failed: 0 });
    expect(server.received).toHaveLength(1);
    const [mail] = server.received;
    expect(mail.to).toEqual(["kasun@example.com"]);
    expect(mail.from).toBe("no-reply@bodima.lk");
    expect(mail.subject).toBe("Reset your Bodima password");
    expect(mail.replyTo).toBe("help@bodima.lk");
    expect(mail.text).toBe(resetMail.text);
    const stored = await row(db, id);
    expect(stored.status).toBe("sent");
    expect(stored.sentAt).not.toBeNull();
    expect(await deliverDueMail(db, transport, silent)).toEqual({ delivered: 0, retrying: 0, failed: 0 });
  });

  it("delivers non-English text and an HTML part intact", async () => {
    const { db } = ctx();
    const server = await smtpServer();
    const transport = createSmtpTransport(`smtp://127.0.0.1:${server.port}`, FROM);
    const text = `ආයුබෝවන් / வணக்கம் — ${"long line ".repeat(20)}`;
    await enqueueMail(db, { ...resetMail, subject: "ආයුබෝවන් Bodima", text, html: "<p>ආයුබෝවන්</p>" });
    await deliverDueMail(db, transport, silent);
    transport.close();
    expect(server.received[0]).toMatchObject({ subject: "ආයුබෝවන් Bodima", text, html: "<p>ආයුබෝවන්</p>" });
  });

  it("keeps a message while the SMTP server is down, backs off, and delivers once it is back", async () => {
    const { db } = ctx();
    const port = await closedPort();
    const transport = createSmtpTransport(`smtp://user:secret@127.0.0.1:${port}`, FROM);
    const t0 = new Date("2026-11-22T10:00:00.000Z");
    const id = await enqueueMail(db, resetMail, t0);

    expect(await deliverDueMail(db, transport, silent, t0)).toEqual({ delivered: 0, retrying: 1, failed: 0 });
    let stored = await row(db, id);
    expect(stored.status).toBe("pending");
    expect(stored.attempts).toBe(1);
    expect(stored.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(stored.nextAttemptAt).toBe(new Date(t0.getTime() + minutes(1)).toISOString());

    // Not due yet: nothing is tried.
    expect(await deliverDueMail(db, transport, silent, new Date(t0.getTime() + minutes(1) - 1))).toEqual({
      delivered: 0,
      retrying: 0,
      failed: 0,
    });

    const t1 = new Date(t0.getTime() + minutes(1));
    expect(await deliverDueMail(db, transport, silent, t1)).toEqual({ delivered: 0, retrying: 1, failed: 0 });
    stored = await row(db, id);
    expect(stored.attempts).toBe(2);
    expect(stored.nextAttemptAt).toBe(new Date(t1.getTime() + minutes(5)).toISOString());

    const server = await smtpServer(port);
    await deliverDueMail(db, transport, silent, new Date(stored.nextAttemptAt));
    transport.close();
    stored = await row(db, id);
    expect(stored.status).toBe("sent");
    expect(stored.attempts).toBe(3);
    expect(server.received.map((m) => m.subject)).toEqual(["Reset your Bodima password"]);
  });

  it("gives up after the last attempt and keeps the message as failed", async () => {
    const { db } = ctx();
    const transport = createSmtpTransport(`smtp://127.0.0.1:${await closedPort()}`, FROM);
    const id = await enqueueMail(db, resetMail);
    const delays: number[] = [];
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      const due = new Date((await row(db, id)).nextAttemptAt);
      await deliverDueMail(db, transport, silent, due);
      delays.push(Date.parse((await row(db, id)).nextAttemptAt) - due.getTime());
    }
    transport.close();
    const stored = await row(db, id);
    expect(stored.status).toBe("failed");
    expect(stored.attempts).toBe(MAX_ATTEMPTS);
    expect(stored.lastError).toBeTruthy();
    // Exponential backoff from 1 minute up to a day.
    expect(delays.slice(0, 4)).toEqual([minutes(1), minutes(5), minutes(30), minutes(120)]);
    expect(await deliverDueMail(db, transport, silent, new Date(Date.now() + minutes(60 * 24 * 365)))).toEqual({
      delivered: 0,
      retrying: 0,
      failed: 0,
    });
  });

  it("without SMTP_URL prints each message to the log once and keeps it as 'logged'", async () => {
    const { db } = ctx();
    const { log, lines } = captureLog();
    const transport = createLogTransport(log);
    const id = await enqueueMail(db, resetMail);
    expect(await deliverDueMail(db, transport, silent)).toEqual({ delivered: 1, retrying: 0, failed: 0 });
    await deliverDueMail(db, transport, silent);
    const printed = lines.filter((l) => l.mail);
    expect(printed).toHaveLength(1);
    expect(printed[0].mail).toMatchObject({ to: resetMail.to, subject: resetMail.subject, text: resetMail.text });
    expect((await row(db, id)).status).toBe("logged");
  });

  it("on a public site prints the message with the secrets of its links redacted (a log reader cannot reset a password)", async () => {
    const { db } = ctx();
    const { log, lines } = captureLog();
    const transport = createMailTransport({
      from: FROM,
      log,
      redactLinks: !parseEnv({ SITE_URL: "https://bodima.lk" }).siteIsLocal,
    });
    const id = await enqueueMail(db, {
      ...resetMail,
      to: "redact@example.com",
      text: "Open https://bodima.lk/reset-password?token=Secret-abc123 now.",
    });
    await deliverDueMail(db, transport, silent);
    const printed = lines.filter((l) => l.mail);
    expect(printed).toHaveLength(1);
    expect(JSON.stringify(printed)).not.toContain("Secret-abc123");
    expect((printed[0].mail as { text: string }).text).toBe(
      "Open https://bodima.lk/reset-password?token=[redacted] now.",
    );
    // The outbox keeps the message as it was (the purge job blanks it after 7 days).
    expect((await row(db, id)).text).toContain("Secret-abc123");
  });

  it("on a public site redacts the tokens in the path of alert and availability links it prints", async () => {
    const { db } = ctx();
    const { log, lines } = captureLog();
    const transport = createMailTransport({ from: FROM, log, redactLinks: true });
    await enqueueMail(db, {
      ...resetMail,
      to: "redact-path@example.com",
      text: [
        "Confirm: https://bodima.lk/si/alerts/confirm/Al3rtId.C0nfirmSecret.",
        "Manage: https://bodima.lk/alerts/manage/M4nageSecret",
        "Still free? https://bodima.lk/availability/12.yes.1790000000.Av4ilSecret",
      ].join("\n"),
    });
    await deliverDueMail(db, transport, silent);
    const printed = lines.filter((l) => l.mail);
    expect(printed).toHaveLength(1);
    for (const secret of ["C0nfirmSecret", "M4nageSecret", "Av4ilSecret"])
      expect(JSON.stringify(printed)).not.toContain(secret);
    expect((printed[0].mail as { text: string }).text).toBe(
      [
        "Confirm: https://bodima.lk/si/alerts/confirm/[redacted].",
        "Manage: https://bodima.lk/alerts/manage/[redacted]",
        "Still free? https://bodima.lk/availability/[redacted]",
      ].join("\n"),
    );
  });

  it("lets only one of several racing senders claim a message, and takes over an expired claim", async () => {
    const { db } = ctx();
    const now = new Date();
    const ids = await Promise.all(
      [1, 2, 3].map((n) => enqueueMail(db, { ...resetMail, to: `r${n}@example.com` }, now)),
    );
    const claims = await Promise.all([claimDueMail(db, now), claimDueMail(db, now), claimDueMail(db, now)]);
    expect(
      claims
        .flat()
        .map((m) => m.id)
        .sort(),
    ).toEqual([...ids].sort());

    // A sender that died mid-send: its claim runs out and another sender retries.
    expect(await claimDueMail(db, new Date(now.getTime() + CLAIM_LEASE_MS - 1000))).toEqual([]);
    expect(await claimDueMail(db, new Date(now.getTime() + CLAIM_LEASE_MS + 1000))).toHaveLength(3);
  });

  it("sends promptly in the background once a message is queued", async () => {
    const { db } = ctx();
    const server = await smtpServer();
    const sender = startMailSender({
      db,
      transport: createSmtpTransport(`smtp://127.0.0.1:${server.port}`, FROM),
      log: silent,
      intervalMs: 60_000,
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await enqueueMail(db, { ...resetMail, subject: "Queued while running" });
      await expect
        .poll(() => server.received.map((m) => m.subject), { timeout: 5_000 })
        .toEqual(["Queued while running"]);
    } finally {
      sender.stop();
    }
  });

  it("emails a contact message to support, replying to the sender", async () => {
    const { db } = ctx();
    const input = {
      name: "Nimal Perera",
      email: "nimal@example.com",
      subject: "Technical Support" as const,
      message: "The map\ndoes not open.",
    };
    const stored = await saveContactMessage(db, input);
    const id = await emailContactMessageToSupport(
      db,
      { supportEmail: "help@bodima.lk", siteName: "Bodima", siteUrl: "https://bodima.lk" },
      input,
      stored,
    );
    const mail = await row(db, id);
    expect(mail).toMatchObject({
      kind: "contact",
      to: "help@bodima.lk",
      replyTo: "nimal@example.com",
      status: "pending",
    });
    expect(mail.subject).toBe("[Bodima] Technical Support from Nimal Perera");
    expect(mail.text).toContain("Nimal Perera (nimal@example.com)");
    expect(mail.text).toContain("The map\ndoes not open.");
  });

  describe("/dev/outbox", () => {
    function load(
      db: DB,
      nodeEnv: "production" | "development" | "test",
      clientIp = "127.0.0.1",
      headers: Record<string, string> = {},
    ) {
      const context = new RouterContextProvider();
      context.set(requestContext, {
        db,
        env: parseEnv({ NODE_ENV: nodeEnv }),
        log: silent,
        clientIp,
      } as unknown as RequestInfo);
      return devOutboxLoader({
        request: new Request("http://localhost/dev/outbox", { headers }),
        params: {},
        context,
      } as unknown as Parameters<typeof devOutboxLoader>[0]);
    }

    it("lists the newest messages in development, to a browser on this machine", async () => {
      const { db } = ctx();
      await enqueueMail(db, { ...resetMail, subject: "Older" }, new Date("2026-11-22T10:00:00Z"));
      await enqueueMail(db, { ...resetMail, subject: "Newer" }, new Date("2026-11-22T11:00:00Z"));
      const data = await load(db, "development");
      expect(data.messages.map((m) => m.subject)).toEqual(["Newer", "Older"]);
      expect((await load(db, "development", "::1")).messages).toHaveLength(2);
      expect((await load(db, "development", "::ffff:127.0.0.1")).messages).toHaveLength(2);
    });

    it("lists a phone code the SMS outbox kept as a text message (ADR 075)", async () => {
      const { db } = ctx();
      await createOutboxSink(db).send({ to: "+94771234567", text: "Bodima: 123456 is your code", unicode: false });
      const [latest] = (await load(db, "development")).messages;
      expect(latest).toMatchObject({ to: "+94771234567", text: "Bodima: 123456 is your code", status: "sms" });
    });

    it("answers 404 in production and whenever NODE_ENV is not development", async () => {
      const { db } = ctx();
      await expect(load(db, "production")).rejects.toMatchObject({ init: { status: 404 } });
      await expect(load(db, "test")).rejects.toMatchObject({ init: { status: 404 } });
    });

    it("answers 404 in development to anyone not on this machine, also through a proxy on it", async () => {
      const { db } = ctx();
      await enqueueMail(db, resetMail);
      for (const ip of ["192.168.1.20", "10.0.0.5", "2001:db8::1", "unknown", ""]) {
        await expect(load(db, "development", ip), ip).rejects.toMatchObject({ init: { status: 404 } });
      }
      // A reverse proxy on the same machine connects from 127.0.0.1 for every visitor.
      for (const headers of [
        { "X-Forwarded-For": "203.0.113.9" },
        { Forwarded: "for=203.0.113.9" },
        { "X-Forwarded-For": "127.0.0.1" },
      ] as Record<string, string>[]) {
        await expect(load(db, "development", "127.0.0.1", headers), JSON.stringify(headers)).rejects.toMatchObject({
          init: { status: 404 },
        });
      }
    });
  });

  describe("purge-sent-mail job", () => {
    const DAY = 24 * 60 * 60 * 1000;

    it("blanks the text of messages delivered more than 7 days ago and keeps who, what kind and when", async () => {
      const { db } = ctx();
      const now = new Date("2027-03-20T12:00:00Z");
      const at = (days: number) => new Date(now.getTime() - days * DAY);
      const mail = (subject: string) => ({
        ...resetMail,
        to: "purge@example.com",
        subject,
        html: "<p>https://bodima.lk/reset-password?token=abc</p>",
      });
      const old = await enqueueMail(db, mail("sent 8 days ago"), at(8));
      await markMailDelivered(db, old, "sent", at(8));
      const oldLogged = await enqueueMail(db, mail("logged 10 days ago"), at(10));
      await markMailDelivered(db, oldLogged, "logged", at(10));
      const recent = await enqueueMail(db, mail("sent 6 days ago"), at(9));
      await markMailDelivered(db, recent, "sent", at(6));
      const waiting = await enqueueMail(db, mail("still pending"), at(9));
      const failed = await enqueueMail(db, mail("failing"), at(9));
      await db
        .updateTable("outbox")
        .set({ status: "failed", attempts: MAX_ATTEMPTS })
        .where("id", "=", failed)
        .execute();

      const ctxFor = {
        db,
        env: parseEnv({ NODE_ENV: "test" }),
        storage: undefined as never,
        log: silent,
        mail: () => createLogTransport(silent),
        now,
      };
      expect(await JOBS["purge-sent-mail"].run(ctxFor)).toEqual({ purged: 2 });

      for (const id of [old, oldLogged]) {
        const purged = await row(db, id);
        expect(purged.text).toBe("");
        expect(purged.html).toBeNull();
        expect(purged).toMatchObject({ to: "purge@example.com", kind: "password-reset" });
        expect(purged.sentAt).not.toBeNull();
      }
      for (const id of [recent, waiting, failed]) {
        const kept = await row(db, id);
        expect(kept.text).toContain("token=abc");
        expect(kept.html).toContain("token=abc");
      }
      // Nothing left to do on the next run; a day later the 6-day-old message goes too.
      expect(await JOBS["purge-sent-mail"].run(ctxFor)).toEqual({ purged: 0 });
      expect(await JOBS["purge-sent-mail"].run({ ...ctxFor, now: new Date(now.getTime() + 2 * DAY) })).toEqual({
        purged: 1,
      });
      expect((await row(db, recent)).text).toBe("");
    });
  });
});

function postContact(db: DB, email: string) {
  // A whole request context (the action counts the message against the per-IP limit).
  const context = testContext({ db, env: { SUPPORT_EMAIL: "help@bodima.lk" } });
  const body = new URLSearchParams({ name: "Ravi", email, subject: "Other", message: "Hello" });
  const request = new Request("http://localhost/contact", { method: "POST", body });
  return contactAction({ request, params: {}, context } as unknown as Parameters<typeof contactAction>[0]);
}

describeEachDatabase("contact form email", (ctx) => {
  it("queues an email to SUPPORT_EMAIL when a message is sent", async () => {
    const { db } = ctx();
    expect(await postContact(db, "ravi@example.com")).toEqual({ status: "sent" });
    const queued = await db.selectFrom("outbox").selectAll().where("replyTo", "=", "ravi@example.com").execute();
    expect(queued).toMatchObject([{ kind: "contact", to: "help@bodima.lk", subject: "[Bodima] Other from Ravi" }]);
  });

  it("still stores the message and reports success when the outbox fails", async () => {
    const { db } = ctx();
    await db.schema.dropTable("outbox").execute();
    expect(await postContact(db, "ravi2@example.com")).toEqual({ status: "sent" });
    const stored = await db
      .selectFrom("contact_messages")
      .select("email")
      .where("email", "=", "ravi2@example.com")
      .execute();
    expect(stored).toHaveLength(1);
  });
});
