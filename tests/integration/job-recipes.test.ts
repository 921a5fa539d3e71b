import pino from "pino";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { parseEnv } from "../../app/env.server";
import { runJobs } from "../../app/jobs/jobs.server";
import { setClock } from "../../app/lib/clock";
import { deliverDueMail } from "../../app/mail/sender.server";
import { createSmtpTransport, type MailTransport } from "../../app/mail/transport.server";
import { insertListing } from "../../app/models/listing.server";
import { insertTestOwner, listingInput } from "../factories";
import { TEST_SITE } from "../request-context";
import { startTestSmtpServer, type TestSmtpServer } from "../smtp-test-server";
import { describeEachDatabase } from "../test-db";

// The README's way to try the availability reminder today:
// `NODE_ENV=development NOW=<15 days on> npm run job -- availability-reminders send-mail`.
// scripts/job.ts sets the clock from NOW once (app/services.server.ts) and runs
// the named jobs with runJobs, in order, in one process; so does this test.

const DAY = 24 * 60 * 60 * 1000;
const silent = pino({ level: "silent" });

describeEachDatabase("the availability reminder recipe", (ctx) => {
  let smtp: TestSmtpServer;
  let transport: MailTransport;

  beforeEach(async () => {
    await ctx().db.deleteFrom("outbox").execute();
    smtp = await startTestSmtpServer();
    transport = createSmtpTransport(`smtp://127.0.0.1:${smtp.port}`, "Bodima <no-reply@bodima.lk>");
  });
  afterEach(async () => {
    setClock(undefined);
    transport.close();
    await smtp.close();
  });

  const jobContext = (db: DB) => ({
    db,
    env: parseEnv({ SITE_URL: TEST_SITE, NODE_ENV: "development", SESSION_SECRET: "r".repeat(64) }),
    storage: undefined as never,
    log: silent,
    mail: () => transport,
  });

  /** An owner's listing posted today (real time); NOW is then set 15 days on, as the recipe does. */
  async function postedToday(db: DB) {
    const owner = await insertTestOwner(db, `recipe-${crypto.randomUUID()}`);
    await insertListing(db, owner, listingInput({ title: "Annex by the recipe" }));
    setClock(new Date(Date.now() + 15 * DAY).toISOString());
    return owner;
  }

  it("reminders then send-mail in one run deliver the reminder by SMTP", async () => {
    const { db } = ctx();
    const owner = await postedToday(db);

    const runs = await runJobs(["availability-reminders", "send-mail"], jobContext(db));

    expect(runs.map((r) => r.name)).toEqual(["availability-reminders", "send-mail"]);
    expect(runs[0].counts).toMatchObject({ reminded: 1 });
    expect(runs[1].counts).toMatchObject({ delivered: 1 });
    const mails = smtp.received.filter((m) => m.to.includes(owner.email));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain('Is "Annex by the recipe" still available?');
  });

  it("the reminder alone waits for its day: the server's sender on today's clock leaves it", async () => {
    const { db } = ctx();
    const owner = await postedToday(db);
    await runJobs(["availability-reminders"], jobContext(db));

    setClock(undefined);
    expect(await deliverDueMail(db, transport, silent)).toMatchObject({ delivered: 0 });
    expect(smtp.received.filter((m) => m.to.includes(owner.email))).toHaveLength(0);
  });
});
