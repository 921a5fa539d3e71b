import type { Logger } from "pino";
import type { DB } from "~/db/db.server";
import type { Env } from "~/env.server";
import { currentTime } from "~/lib/clock";
import { untilIdle, workerIsIdle } from "~/lib/idle.server";
import { jobRuns } from "~/lib/metrics.server";
import { sendSearchAlerts } from "~/mail/alert-mails.server";
import { sendAvailabilityReminders } from "~/mail/availability-mails.server";
import { emailReportDigests } from "~/mail/report-mails.server";
import { emailHeldDigests } from "~/mail/review-mails.server";
import { deliverDueMail } from "~/mail/sender.server";
import type { MailTransport } from "~/mail/transport.server";
import { removeOldManageLinks } from "~/models/alert-manage-links.server";
import { sketchStoredDescriptions } from "~/models/description-copies.server";
import { purgeSentMailBodies } from "~/models/outbox.server";
import { fingerprintStoredPhotos } from "~/models/photo-copies.server";
import { sweepOrphanPhotos } from "~/models/photo-sweep.server";
import { removeStaleUploads } from "~/models/photo-upload.server";
import { removeOldSearchAlerts } from "~/models/search-alerts.server";
import { secretsFor } from "~/security/secrets.server";
import { seededOwnerIds } from "~/seed/seeded-owners.server";
import type { PhotoStorage } from "~/storage/storage.server";
import { PROCESS_HOLDER, withJobLease } from "./lease.server";

/**
 * Background jobs (ADR 022, 070): plain functions that the
 * server's scheduler runs on a timer and an operator can run once by hand with
 * `npm run job -- <name> [<name>…]` (scripts/job.ts). Each returns counts for the log.
 * A new job is one entry here and one line in the README's list.
 */
export type JobContext = {
  db: DB;
  env: Env;
  storage: PhotoStorage;
  log: Logger;
  /** The mail transport (SMTP_URL, else the log), made on first use. */
  mail: () => MailTransport;
  /** The clock's time when the run started (app/lib/clock.ts: NOW moves it outside production). */
  now: Date;
};

export type Job = {
  description: string;
  /** How often the server runs it; null when something else drives it (the mail sender wakes on every queued mail). */
  everyMs: number | null;
  run: (ctx: JobContext) => Promise<Record<string, number>>;
};

/** What mails with signed one-click links need: the site, and the secret that signs them. */
function signedLinks(ctx: JobContext) {
  return { siteName: ctx.env.SITE_NAME, siteUrl: ctx.env.siteUrl, secret: secretsFor(ctx.env).sessionSecret };
}

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

export const JOBS = {
  "send-mail": {
    description: "Sends every outbox message that is due (the server also does this within seconds of queueing).",
    everyMs: null,
    run: async (ctx) => ({ ...(await deliverDueMail(ctx.db, ctx.mail(), ctx.log, ctx.now)) }),
  },
  "remove-stale-uploads": {
    description: "Removes photos uploaded more than a day ago that never became part of a listing.",
    everyMs: HOUR,
    run: async (ctx) => ({ removed: await removeStaleUploads(ctx.db, ctx.storage, ctx.now) }),
  },
  "purge-sent-mail": {
    description:
      "Blanks the text of emails delivered more than 7 days ago (reset links, contact messages); keeps who, what kind and when.",
    everyMs: DAY,
    run: async (ctx) => ({ purged: await purgeSentMailBodies(ctx.db, ctx.now) }),
  },
  "sweep-orphan-photos": {
    description: "Removes photo files written more than a day ago that no photo row refers to.",
    everyMs: DAY,
    run: async (ctx) => ({ ...(await sweepOrphanPhotos(ctx.db, ctx.storage, ctx.now)) }),
  },
  "report-digest": {
    description:
      "Emails moderators one digest per listing of the reports that came within an hour of the last email about it, and, at most hourly, one naming the listings newly held for review.",
    everyMs: 5 * 60 * 1000,
    run: async (ctx) => {
      const site = { supportEmail: ctx.env.SUPPORT_EMAIL, siteName: ctx.env.SITE_NAME, siteUrl: ctx.env.siteUrl };
      return {
        ...(await emailReportDigests(ctx.db, site, ctx.now)),
        held: await emailHeldDigests(ctx.db, site, ctx.now),
      };
    },
  },
  "availability-reminders": {
    description:
      "Asks the owner of each listing confirmed 14 or more days ago, once per confirmation, whether it is still available (two one-click links).",
    everyMs: HOUR,
    run: async (ctx) => ({ ...(await sendAvailabilityReminders(ctx.db, signedLinks(ctx), ctx.now)) }),
  },
  "search-alerts": {
    description:
      "Emails each confirmed search alert the places posted since its last email, when there are any, at most once a day.",
    everyMs: HOUR,
    run: async (ctx) => ({ ...(await sendSearchAlerts(ctx.db, signedLinks(ctx), ctx.now)) }),
  },
  "remove-old-alerts": {
    description:
      "Deletes search alerts nobody confirmed within 7 days, alerts stopped more than 7 days ago, and alert manage links expired more than 30 days ago.",
    everyMs: DAY,
    run: async (ctx) => ({
      ...(await removeOldSearchAlerts(ctx.db, ctx.now)),
      manageLinks: await removeOldManageLinks(ctx.db, ctx.now),
    }),
  },
  "photo-fingerprints": {
    description:
      "Fingerprints stored photos that have none (those uploaded before fingerprints existed) from their files, so copies of them are found.",
    everyMs: DAY,
    run: async (ctx) => ({
      ...(await fingerprintStoredPhotos(ctx.db, ctx.storage, {
        seededUserIds: await seededOwnerIds(ctx.db),
        now: ctx.now,
      })),
    }),
  },
  "description-sketches": {
    description:
      "Sketches the descriptions of listings that have none (those posted before sketches existed), so near copies of them are found, and forgets those of listings removed more than 180 days ago.",
    everyMs: DAY,
    run: async (ctx) => ({
      ...(await sketchStoredDescriptions(ctx.db, { seededUserIds: await seededOwnerIds(ctx.db), now: ctx.now })),
    }),
  },
} satisfies Record<string, Job>;

export type JobName = keyof typeof JOBS;
export const JOB_NAMES = Object.keys(JOBS) as JobName[];

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOBS, name);
}

export async function runJob(name: JobName, ctx: Omit<JobContext, "now">): Promise<Record<string, number>> {
  const job: Job = JOBS[name];
  return job.run({ ...ctx, now: currentTime() });
}

/**
 * Runs jobs once, one after the other, in this process (`npm run job -- a b`),
 * each at the clock's time when it starts. With NOW (app/lib/clock.ts) that is
 * how to try a rule that queues mail: `availability-reminders send-mail` sends
 * the reminder it queued, since the clock has only run on. Run apart, a second
 * process with the same NOW starts its clock at NOW again, before the time the
 * first one queued the mail at, and the server's sender (on today's clock)
 * leaves it waiting for that day (scripts/job.test.ts).
 */
export async function runJobs(
  names: readonly JobName[],
  ctx: Omit<JobContext, "now">,
): Promise<{ name: JobName; counts: Record<string, number> }[]> {
  const done: { name: JobName; counts: Record<string, number> }[] = [];
  for (const name of names) done.push({ name, counts: await runJob(name, ctx) });
  return done;
}

/**
 * How long a job waits for the worker to be idle (ADR 095): jobs yield to
 * visitors, but run within this much of their look however busy it is.
 */
export const JOB_IDLE_WAIT_MS = 5 * 60 * 1000;
/**
 * How long the worker must have been idle before a job starts: a job runs to
 * its end once started (seconds of queries on a large site), so a gap of a
 * moment between two bursts is not enough.
 */
export const JOB_QUIET_MS = 5_000;

/** How long a timed job's lease lasts unless renewed (renewed every third of it while the job runs). */
export const JOB_LEASE_MS = 10 * 60 * 1000;

/**
 * Runs the timed jobs: every process that calls this looks every `pollMs`
 * (30 s) for a job that is due, and of all processes and servers sharing the
 * database exactly one runs it (a lease in `job_leases`, app/jobs/lease.server.ts,
 * ADR 039); the next run falls due `everyMs` after that run started. A database
 * that has never run a job runs it `firstRunMs` (a minute) after start-up.
 * A look, and each job after one that ran, first waits until the worker has
 * been idle for JOB_QUIET_MS, at most JOB_IDLE_WAIT_MS.
 * Failures are logged and never escape, and timers never keep the process alive.
 */
export function startJobs(
  ctx: Omit<JobContext, "now">,
  options: { firstRunMs?: number; pollMs?: number; holder?: string } = {},
): { stop: () => Promise<void> } {
  const holder = options.holder ?? PROCESS_HOLDER;
  const firstRunAt = new Date(Date.now() + (options.firstRunMs ?? 60_000));
  let running: Promise<void> | null = null;
  let stopped = false;
  // A look while the last one still runs (a long job) is skipped, not queued behind it.
  const tick = () => {
    running ??= (async () => {
      // Visitors first: a look waits until the worker has been idle a while (looks falling meanwhile
      // are skipped), and so does the next job after one that ran (visitors may have come meanwhile).
      let wait = true;
      for (const name of JOB_NAMES) {
        const job: Job = JOBS[name];
        if (job.everyMs === null || stopped) continue;
        if (wait) {
          await untilIdle({
            maxWaitMs: JOB_IDLE_WAIT_MS,
            quietMs: JOB_QUIET_MS,
            isIdle: () => stopped || workerIsIdle(),
          });
          if (stopped) continue;
        }
        wait = true;
        try {
          const counts = await withJobLease(
            ctx.db,
            name,
            holder,
            { leaseMs: JOB_LEASE_MS, everyMs: job.everyMs, firstRunAt },
            () => runJob(name, ctx),
          );
          wait = counts !== null;
          if (counts) jobRuns.inc({ job: name, outcome: "done" });
          if (counts && Object.values(counts).some((n) => n > 0)) ctx.log.info({ job: name, ...counts }, "job done");
        } catch (error) {
          jobRuns.inc({ job: name, outcome: "failed" });
          ctx.log.error({ err: error, job: name }, "job failed");
        }
      }
    })().finally(() => {
      running = null;
    });
  };
  const pollMs = options.pollMs ?? 30_000;
  // The first look comes when the first run could be due, then every pollMs.
  const first = setTimeout(tick, Math.min(options.firstRunMs ?? 60_000, pollMs));
  const every = setInterval(tick, pollMs);
  first.unref();
  every.unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
