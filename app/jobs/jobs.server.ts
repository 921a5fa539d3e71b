import type { Logger } from "pino";
import type { DB } from "~/db/db.server";
import type { Env } from "~/env.server";
import { currentTime } from "~/lib/clock";
import { emailReportDigests } from "~/mail/report-mails.server";
import { deliverDueMail } from "~/mail/sender.server";
import type { MailTransport } from "~/mail/transport.server";
import { purgeSentMailBodies } from "~/models/outbox.server";
import { sweepOrphanPhotos } from "~/models/photo-sweep.server";
import { removeStaleUploads } from "~/models/photo-upload.server";
import type { PhotoStorage } from "~/storage/storage.server";

/**
 * Background jobs (ENGINEERING.md, house rule 11): plain functions that the
 * server's scheduler runs on a timer and an operator can run once by hand with
 * `npm run job -- <name>` (scripts/job.ts). Each returns counts for the log.
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
      "Emails moderators one digest per listing of the reports that came within an hour of the last email about it.",
    everyMs: 5 * 60 * 1000,
    run: async (ctx) => ({
      ...(await emailReportDigests(
        ctx.db,
        { supportEmail: ctx.env.SUPPORT_EMAIL, siteName: ctx.env.SITE_NAME, siteUrl: ctx.env.siteUrl },
        ctx.now,
      )),
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
 * Runs every timed job in this process: the first run a minute after start-up,
 * then every `everyMs`. Runs of one job never overlap, failures are logged and
 * never escape, and timers never keep the process alive. (One process runs the
 * jobs today; several servers need a job lock first: issue 14.)
 */
export function startJobs(ctx: Omit<JobContext, "now">, options: { firstRunMs?: number } = {}): { stop: () => void } {
  const timers: NodeJS.Timeout[] = [];
  for (const name of JOB_NAMES) {
    const job: Job = JOBS[name];
    if (job.everyMs === null) continue;
    let running = false;
    const tick = async () => {
      if (running) return;
      running = true;
      try {
        const counts = await runJob(name, ctx);
        if (Object.values(counts).some((n) => n > 0)) ctx.log.info({ job: name, ...counts }, "job done");
      } catch (error) {
        ctx.log.error({ err: error, job: name }, "job failed");
      } finally {
        running = false;
      }
    };
    const first = setTimeout(tick, options.firstRunMs ?? 60_000);
    const every = setInterval(tick, job.everyMs);
    first.unref();
    every.unref();
    timers.push(first, every);
  }
  return {
    stop: () => {
      for (const t of timers) clearTimeout(t);
    },
  };
}
