import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createDatabase } from "../../app/db/db.server";
import { startServer } from "../e2e/spawn-server";
import { ports } from "../ports";
import { createPostgresDatabase } from "../postgres-database";

// docs/operations.md: `kill -9` at any moment loses no acknowledged write. Round
// after round, the whole server (primary and both workers) is killed with SIGKILL in the
// middle of a stream of sign-ups, contact messages and reports; every write the
// client saw answered as saved must be in the database afterwards, with the email
// each contact message queued. On SQLite (WAL, synchronous NORMAL) and, with
// TEST_DATABASE_URL, on PostgreSQL. Twenty rounds unless CRASH_ROUNDS says otherwise
// (`npm test` runs fewer: ADR 073 says how many and why).

const ROUNDS = crashRounds(process.env.CRASH_ROUNDS);

const PASSWORD = "Crash-test-pass1";

/** CRASH_ROUNDS as a whole number of rounds, 20 when unset; anything else stops the run before a server starts. */
function crashRounds(value: string | undefined): number {
  if (value === undefined || value === "") return 20;
  const rounds = Number(value);
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error(`CRASH_ROUNDS must be a whole number above 0, not "${value}"`);
  return rounds;
}

type Acknowledged = { accounts: string[]; contacts: string[]; reports: string[] };

/** One form post on a connection of its own, so posts spread over both workers; null when the server died under it. */
function post(
  base: string,
  pathname: string,
  fields: Record<string, string>,
  forwardedFor: string,
): Promise<number | null> {
  return new Promise((resolve) => {
    const body = new URLSearchParams(fields).toString();
    const req = http.request(`${base}${pathname}`, {
      method: "POST",
      agent: false,
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: base,
        Connection: "close",
        "X-Forwarded-For": forwardedFor,
      },
    });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? null));
      res.on("error", () => resolve(null));
    });
    req.on("error", () => resolve(null));
    req.end(body);
  });
}

/** Posts writes until `stop` is set, recording each one the server acknowledged. */
/** Networks used so far by the writers (a /24 each). */
let networks = 0;

async function writeUntil(
  base: string,
  stop: { now: boolean },
  target: { slug: string; id: string },
  done: Acknowledged,
  lane: number,
) {
  for (let n = 0; !stop.now; n++) {
    const marker = `crash${lane}x${n}x${randomBytes(4).toString("hex")}`;
    // A new network for every write, in every round: reports are limited per network and listing,
    // and the reports of earlier rounds are in the database (a network per lane and n repeated each round).
    const network = networks++;
    const ip = `10.${Math.floor(network / 250) % 250}.${network % 250}.${1 + Math.floor(Math.random() * 250)}`;
    // Each lane starts each round with another kind of write, so a round cut short (the kill comes
    // 0.3 to 1.5 s in, and a sign-up's password hashing is slow) still sends reports and messages.
    const kind = (n + lane) % 3;
    if (kind === 0) {
      const email = `${marker}@example.lk`;
      const fields = {
        name: "Crash Tester",
        email,
        phone: "0771234567",
        password: PASSWORD,
        confirmPassword: PASSWORD,
        terms: "on",
      };
      if ((await post(base, "/signup", fields, ip)) === 302) done.accounts.push(email);
    } else if (kind === 1) {
      const fields = { name: "Crash Tester", email: "tester@example.lk", subject: "General Inquiry", message: marker };
      if ((await post(base, "/contact", fields, ip)) === 200) done.contacts.push(marker);
    } else {
      const fields = {
        listingId: target.id,
        reporterName: "Crash Tester",
        reporterEmail: "tester@example.lk",
        reporterContact: "0771234567",
        reason: "spam",
        description: marker,
      };
      if ((await post(base, `/listing/${target.slug}/report`, fields, ip)) === 200) done.reports.push(marker);
    }
  }
}

const databases = ["sqlite", ...(process.env.TEST_DATABASE_URL ? ["postgres"] : [])] as const;

for (const [index, database] of databases.entries()) {
  // The two databases' tests may run at once: each has its own port.
  const port = [ports.crashSqlite, ports.crashPostgres][index];
  const base = `http://127.0.0.1:${port}`;
  test(`${ROUNDS} rounds of kill -9 mid-stream lose no acknowledged write [${database}]`, async () => {
    // A round takes a few seconds; twenty fitted in 420 s on a slow machine.
    test.setTimeout(60_000 + ROUNDS * 18_000);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-crash-"));
    const postgres = database === "postgres" ? await createPostgresDatabase("bodima_crash") : null;
    const env = {
      WEB_CONCURRENCY: "2",
      SITE_URL: base,
      TRUST_PROXY: "1",
      RATE_LIMITS: "signupIp=100000,contactIp=100000,reportIp=100000",
      REPORT_AUTO_HIDE: "100000",
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    };
    const done: Acknowledged = { accounts: [], contacts: [], reports: [] };
    try {
      let target: { slug: string; id: string } | undefined;
      for (let round = 1; round <= ROUNDS; round++) {
        const run = startServer(dataDir, "auto", { port, env });
        await run.started;
        if (!target) {
          const list = (await (await fetch(`${base}/api/listings?limit=1`)).json()) as {
            ads: { slug: string; id: string }[];
          };
          target = list.ads[0];
        }
        const stop = { now: false };
        const writers = [1, 2, 3, 4].map((lane) => writeUntil(base, stop, target!, done, lane));
        // Killed somewhere between 0.3 and 1.5 s into the stream: mid-request, mid-transaction, mid-flush.
        await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 1_200));
        process.kill(-run.server.pid!, "SIGKILL");
        await run.exited;
        stop.now = true;
        await Promise.all(writers);
      }
      // Enough writes were acknowledged for the test to mean something.
      expect(done.accounts.length).toBeGreaterThan(ROUNDS);
      expect(done.contacts.length).toBeGreaterThan(ROUNDS);
      expect(done.reports.length).toBeGreaterThan(ROUNDS);

      const { db, destroy } = createDatabase({ databaseUrl: postgres?.url, dataDir });
      try {
        const emails = new Set((await db.selectFrom("users").select("email").execute()).map((r) => r.email));
        expect(done.accounts.filter((e) => !emails.has(e))).toEqual([]);
        const messages = new Set(
          (await db.selectFrom("contact_messages").select("message").execute()).map((r) => r.message),
        );
        expect(done.contacts.filter((m) => !messages.has(m))).toEqual([]);
        const mails = (await db.selectFrom("outbox").select("text").where("kind", "=", "contact").execute()).map(
          (r) => r.text,
        );
        expect(done.contacts.filter((m) => !mails.some((text) => text.includes(m)))).toEqual([]);
        const reports = new Set(
          (await db.selectFrom("reports").select("description").execute()).map((r) => r.description),
        );
        expect(done.reports.filter((m) => !reports.has(m))).toEqual([]);
      } finally {
        await destroy();
      }
    } finally {
      await postgres?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
