import pino from "pino";
import { beforeEach, expect, it } from "vitest";
import { renewJobLease, takeJobLease, withJobLease } from "../../app/jobs/lease.server";
import { deliverDueMail, startMailSender } from "../../app/mail/sender.server";
import type { MailTransport } from "../../app/mail/transport.server";
import { enqueueMail } from "../../app/models/outbox.server";
import { describeEachDatabase } from "../test-db";

// ADR 039: every background job runs in one process at a time,
// however many processes and servers share the database, and a sender whose
// claim was taken over mid-batch sends nothing twice.

const silent = pino({ level: "silent" });
const HOUR = 3_600_000;

/** A transport that records what it was given (a stand-in for the SMTP server: the sending rules are under test). */
function recordingTransport(onDeliver?: (subject: string) => Promise<void>): MailTransport & { sent: string[] } {
  const sent: string[] = [];
  return {
    name: "smtp",
    sent,
    async deliver(message) {
      sent.push(message.subject);
      await onDeliver?.(message.subject);
      return "sent";
    },
    close() {},
  };
}

describeEachDatabase("job leases", (ctx) => {
  beforeEach(async () => {
    await ctx().db.deleteFrom("job_leases").execute();
    await ctx().db.deleteFrom("outbox").execute();
  });

  it("lets exactly one of several racing processes take a due job, and none before it is due again", async () => {
    const { db } = ctx();
    const holders = ["a", "b", "c", "d", "e"];
    const taken = await Promise.all(holders.map((h) => takeJobLease(db, "sweep", h, { leaseMs: HOUR, everyMs: HOUR })));
    expect(taken.filter(Boolean)).toHaveLength(1);
    const winner = holders[taken.indexOf(true)];
    // Given up, but not due for another hour: nobody runs it again, the winner neither.
    await db.updateTable("job_leases").set({ holder: null, leaseUntil: null }).execute();
    for (const h of holders) expect(await takeJobLease(db, "sweep", h, { leaseMs: HOUR, everyMs: HOUR })).toBe(false);
    // An hour later it is due again.
    await db
      .updateTable("job_leases")
      .set({ nextRunAt: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect(await takeJobLease(db, "sweep", "b", { leaseMs: HOUR, everyMs: HOUR })).toBe(true);
    expect(winner).toBeDefined();
  });

  it("keeps a held lease from others until it runs out, then hands it over; the old holder learns it lost it", async () => {
    const { db } = ctx();
    expect(await takeJobLease(db, "send-mail", "a", { leaseMs: 60_000 })).toBe(true);
    expect(await takeJobLease(db, "send-mail", "b", { leaseMs: 60_000 })).toBe(false);
    expect(await renewJobLease(db, "send-mail", "a", 60_000)).toBe(true);
    // a stalls past its lease (a crash, a long pause): b takes over.
    await db
      .updateTable("job_leases")
      .set({ leaseUntil: new Date(Date.now() - 1).toISOString() })
      .execute();
    expect(await takeJobLease(db, "send-mail", "b", { leaseMs: 60_000 })).toBe(true);
    expect(await renewJobLease(db, "send-mail", "a", 60_000)).toBe(false);
  });

  it("runs work under the lease once at a time, and gives the lease up afterwards, even when the work fails", async () => {
    const { db } = ctx();
    let inside = 0;
    let most = 0;
    const work = async () => {
      inside++;
      most = Math.max(most, inside);
      await new Promise((resolve) => setTimeout(resolve, 30));
      inside--;
      return "done";
    };
    const results = await Promise.all(
      ["a", "b", "c"].map((h) => withJobLease(db, "digest", h, { leaseMs: 60_000 }, work)),
    );
    expect(results.filter((r) => r === "done")).toHaveLength(1);
    expect(most).toBe(1);
    await expect(
      withJobLease(db, "digest", "b", { leaseMs: 60_000 }, async () => {
        throw new Error("broken");
      }),
    ).rejects.toThrow("broken");
    const row = await db.selectFrom("job_leases").selectAll().where("name", "=", "digest").executeTakeFirstOrThrow();
    expect(row.holder).toBeNull();
  });

  it("a sender whose claims were taken over mid-batch sends none of them again", async () => {
    const { db } = ctx();
    // Claimed ten minutes ago: the claims (five minutes) ran out while the first message was being sent.
    const then = new Date(Date.now() - 10 * 60_000);
    for (let n = 1; n <= 20; n++)
      await enqueueMail(db, { kind: "contact", to: "help@bodima.lk", subject: `m${n}`, text: "." }, then);
    const other = recordingTransport();
    const slow = recordingTransport(async (subject) => {
      // While the slow sender is busy with its first message, another takes the expired claims and sends them.
      if (subject === "m1") await deliverDueMail(db, other, silent, new Date(), "sender-b");
    });
    const report = await deliverDueMail(db, slow, silent, then, "sender-a");
    expect(slow.sent).toEqual(["m1"]);
    expect(report.lostClaims).toBe(19);
    expect([...other.sent].sort()).toEqual(Array.from({ length: 19 }, (_, i) => `m${i + 2}`).sort());
    const statuses = await db.selectFrom("outbox").select(["status", "claimedBy"]).execute();
    expect(statuses.every((s) => s.status === "sent" && s.claimedBy === null)).toBe(true);
  });

  it("two background senders on one database deliver each queued message once", async () => {
    const { db } = ctx();
    const transports = [recordingTransport(), recordingTransport()];
    const senders = transports.map((transport, i) =>
      startMailSender({ db, transport, log: silent, intervalMs: 20, holder: `process-${i}` }),
    );
    try {
      for (let n = 1; n <= 20; n++)
        await enqueueMail(db, { kind: "contact", to: "help@bodima.lk", subject: `q${n}`, text: "." });
      const all = () => transports.flatMap((t) => t.sent);
      await expect.poll(() => all().length, { timeout: 5_000 }).toBe(20);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect([...all()].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `q${i + 1}`).sort());
    } finally {
      await Promise.all(senders.map((s) => s.stop()));
    }
  });
});
