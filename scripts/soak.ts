// npm run soak -- --minutes N [--rate R] [--db postgres] ... (--help lists them)
// A day of traffic without drift (ADR 094): seeds a database, starts the production
// server, measures its capacity for the mix in scripts/soak/traffic.ts, replays the
// mix at 70% of it, prints one line a minute and checks the run (scripts/soak/verdict.ts).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRandom } from "../app/seed/random.ts";
import { loadCatalogue } from "./bench/catalogue.ts";
import { BROWSER_HEADERS } from "./bench/http.ts";
import { requestEach } from "./bench/load.ts";
import {
  buildApp,
  ROOT,
  runStep,
  type Service,
  seed,
  serverEnv,
  startService,
  tail,
  waitUntilUp,
} from "./bench/processes.ts";
import { appendRecord, BENCHMARKS_FILE, currentCommit, describeMachine } from "./bench/record.ts";
import { createUrlGenerator, FIXED_PAGES, takeDistinct } from "./bench/urls.ts";
import { createZipfSampler } from "./bench/zipf.ts";
import { parseSoakArgs, SOAK_SHARE_OF_CAPACITY, SOAK_USAGE } from "./soak/args.ts";
import {
  CAPACITY_FIRST_RATE,
  CAPACITY_HOLD_SECONDS,
  CAPACITY_P99_MS,
  CAPACITY_STEP_SECONDS,
  type CapacityStep,
  capacityOf,
  holdUntilWithin,
  PAGE_KINDS,
  rampUp,
} from "./soak/capacity.ts";
import { COLD_AGAIN_AFTER_MS, createColdSource, listingsNeeded, takesListing } from "./soak/cold.ts";
import { checkLedger, createOwners, freshPostgres, totalViews } from "./soak/database.ts";
import { createCpuMeter, startHostProbe } from "./soak/host.ts";
import { type SoakPostgres, soakPostgres } from "./soak/postgres-server.ts";
import { formatSoakRecord } from "./soak/record.ts";
import { createWindow, groupPids, residentMb, serverFigures } from "./soak/sampler.ts";
import {
  formatStatementDrift,
  readSessions,
  readStatements,
  type StatementSnapshot,
  statementDrift,
} from "./soak/statements.ts";
import { type ActionKind, createKindPicker, createTraffic, MIX } from "./soak/traffic.ts";
import { type Check, formatMinute, judge, type Minute, SETTLE_MINUTES } from "./soak/verdict.ts";

const HOT_URLS = 1_000;
/** Actions still waiting for an answer beyond which the client counts the next ones as late rather than send them. */
const MAX_IN_FLIGHT = 256;
/** One job a minute, in this order, by `npm run job` as an operator would (the server also runs them on its own). */
const JOBS = [
  "send-mail",
  "photo-fingerprints",
  "description-sketches",
  "search-alerts",
  "report-digest",
  "remove-stale-uploads",
  "sweep-orphan-photos",
  "availability-reminders",
  "remove-old-alerts",
  "purge-sent-mail",
];

const JOB_SCRIPT = ["--disable-warning=ExperimentalWarning", "scripts/job.ts"];

const parsed = parseSoakArgs(process.argv.slice(2));
if ("help" in parsed) {
  console.log(SOAK_USAGE);
  process.exit(0);
}
if ("error" in parsed) {
  console.error(`${parsed.error}\n\n${SOAK_USAGE}`);
  process.exit(2);
}
const args = parsed;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-soak-"));
const base = `http://127.0.0.1:${args.port}`;
const metricsToken = randomBytes(24).toString("hex");
const env: NodeJS.ProcessEnv = {
  ...serverEnv({
    dataDir,
    port: args.port,
    workers: args.workers,
    sessionSecret: randomBytes(32).toString("hex"),
  }),
  METRICS_TOKEN: metricsToken,
  // As behind nginx on this machine: each visitor's address comes in X-Forwarded-For.
  TRUST_PROXY: "127.0.0.1",
};

/** The database a PostgreSQL soak creates, and drops unless --keep. */
const SOAK_DATABASE = "bodima_soak";
const services: Service[] = [];
let dropDatabase: (() => Promise<void>) | null = null;
let postgres: SoakPostgres | null = null;
async function cleanUp() {
  for (const service of services) service.stop();
  if (args.keep) console.log(`Data folder kept: ${dataDir}`);
  else {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase?.().catch((error: unknown) => console.error(`Could not drop the soak database: ${error}`));
  }
  try {
    postgres?.stop();
  } catch (error) {
    console.error(`Could not stop the soak's PostgreSQL server: ${error instanceof Error ? error.message : error}`);
  }
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

const serverLog = path.join(dataDir, "server.log");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

try {
  if (args.db === "postgres") {
    postgres = await soakPostgres(args.postgresUrl, args.keep);
    console.log(`Database server: ${postgres.description}`);
    const database = await freshPostgres(postgres.adminUrl, SOAK_DATABASE);
    env.DATABASE_URL = database.url;
    if (!args.keep) dropDatabase = database.drop;
  }
  const where = { databaseUrl: env.DATABASE_URL, dataDir };
  console.log(
    "The build: npm run build, unless it is newer than every file it is made from (a stale one would measure old code)...",
  );
  buildApp(env);
  seed(env, args.listings);
  // A seed writes no description sketches or photo fingerprints; their backfill (once in a site's
  // life, after the migration that added them) would otherwise run inside the first measured minutes.
  runStep("the backfill jobs", process.execPath, [...JOB_SCRIPT, "description-sketches", "photo-fingerprints"], env);
  const owners = await createOwners(where, args.owners);
  const viewsBefore = await totalViews(where);

  // One seeded generator for every random choice, so a run's mix can be repeated.
  const random = createRandom(0x50a4);
  const catalogue = await loadCatalogue({ databaseUrl: env.DATABASE_URL, dataDir, wanted: args.listings, random });
  // A third of the listings for the URL mixes, a third for views and saves, the rest for reports: a
  // report may hide a listing (three networks, REPORT_AUTO_HIDE), which must not turn a hot URL into a 404.
  const third = Math.floor(catalogue.listings.length / 3);
  const urlListings = catalogue.listings.slice(0, third);
  const seen = new Set<string>(FIXED_PAGES);
  const nextUrl = createUrlGenerator({ ...catalogue, listings: urlListings }, random, { cycleListings: true });
  const hot = [...FIXED_PAGES, ...takeDistinct(nextUrl, HOT_URLS - FIXED_PAGES.length, seen)];
  const nextCold = createColdSource(nextUrl, new Set(hot));
  const rank = createZipfSampler(hot.length, 1, () => random.next());

  const app = startService("server.ts", [], env, serverLog);
  services.push(app);
  await waitUntilUp(`${base}/healthz`, app);
  const pgid = app.child.pid!;

  let window = createWindow();
  /** Pages alone: the capacity's target and the p99 judged for drift are what visitors wait for (ADR 103, 106). */
  let pages = createWindow();
  let hotPages = createWindow();
  let coldPages = createWindow();
  const byKind = new Map<ActionKind, number>();
  const traffic = createTraffic({
    base,
    random,
    hot,
    hotRank: rank,
    nextCold,
    listings: catalogue.listings.slice(third, 2 * third),
    reportTargets: catalogue.listings.slice(2 * third),
    owners,
    // Enough addresses that none meets a per-address limit at this rate (ADR 094).
    visitors: 16_384,
    record: (o) => {
      window.add(o.kind, o.ms, o.status, o.error, o.reason);
      if (PAGE_KINDS.has(o.kind)) pages.add(o.kind, o.ms, o.status, o.error);
      if (o.kind === "hot") hotPages.add(o.kind, o.ms, o.status, o.error);
      if (o.kind === "cold") coldPages.add(o.kind, o.ms, o.status, o.error);
      byKind.set(o.kind, (byKind.get(o.kind) ?? 0) + 1);
    },
  });
  const pick = createKindPicker(random);

  console.log(`Warm-up: each of the ${hot.length} hot URLs once...`);
  await requestEach(base, hot, 16, BROWSER_HEADERS);

  /**
   * Sends actions open loop, `perSecond` of them, from now until `end`, as visitors arrive whatever
   * the answers do; an action that would make more than MAX_IN_FLIGHT wait is counted late instead.
   * With `tick` (the soak's minute lines), run between sends, it stops when `tick` returns true.
   */
  const inFlight = new Set<Promise<void>>();
  async function openLoop(perSecond: number, end: number, tick?: (now: number) => boolean) {
    const interval = 1000 / perSecond;
    let due = performance.now();
    for (;;) {
      const now = performance.now();
      while (due <= now && due < end) {
        due += interval;
        if (inFlight.size >= MAX_IN_FLIGHT) {
          window.late();
          continue;
        }
        const action = traffic.run(pick());
        inFlight.add(action);
        void action.finally(() => inFlight.delete(action));
      }
      if (tick ? tick(now) : now >= end) return;
      await sleep(Math.max(1, Math.min(due, end) - performance.now()));
    }
  }

  let rate = args.rate;
  const steps: CapacityStep[] = [];
  let capacityRate: number | null = null;
  if (rate === undefined) {
    console.log(
      `Capacity: the mix open loop, ${CAPACITY_STEP_SECONDS} s at each rate from ${CAPACITY_FIRST_RATE} actions/s, until pages' p99 passes ${CAPACITY_P99_MS} ms or a request fails...`,
    );
    /** Sends `stepRate` for `seconds`, waits for the answers, and says how the pages fared. */
    const measureStep = async (stepRate: number, seconds: number): Promise<CapacityStep> => {
      await openLoop(stepRate, performance.now() + seconds * 1000);
      await Promise.race([Promise.all(inFlight), sleep(10_000)]);
      const figures = window.take();
      const pageFigures = pages.take();
      const step = { rate: stepRate, seconds, p99Ms: pageFigures.p99Ms, errors: figures.errors + figures.late };
      steps.push(step);
      const statuses = figures.errorStatuses.length ? `  [${figures.errorStatuses.join(", ")}]` : "";
      console.log(
        `  ${stepRate} actions/s for ${seconds} s: pages p50 ${pageFigures.p50Ms.toFixed(1)} ms, p99 ${pageFigures.p99Ms.toFixed(1)} ms (every request: p99 ${figures.p99Ms.toFixed(1)} ms), ${step.errors} errors${statuses}`,
      );
      return step;
    };
    const ramp = await rampUp(measureStep);
    console.log(
      `Held for ${CAPACITY_HOLD_SECONDS} s each, from the highest rate the ramp passed, until one stays within:`,
    );
    const holds = await holdUntilWithin(ramp, measureStep);
    const capacity = capacityOf(ramp, holds);
    capacityRate = capacity.rate;
    rate = Math.max(1, Math.round(capacity.rate * SOAK_SHARE_OF_CAPACITY));
    console.log(
      `Capacity ${capacity.rate} actions/s${capacity.within ? "" : ` (none within ${CAPACITY_P99_MS} ms: the first rate)`}; soaking at ${rate}/s`,
    );
  }
  // Enough listings for the cold mix to stay even at this rate (ADR 129): the hot set, drawn from the
  // same generator, tells the share of its URLs that take a listing.
  const drawn = hot.slice(FIXED_PAGES.length);
  const coldPerSecond = (rate * MIX.cold) / Object.values(MIX).reduce((a, b) => a + b, 0);
  const needed = listingsNeeded(coldPerSecond, drawn.filter(takesListing).length / drawn.length);
  if (urlListings.length < needed)
    throw new Error(
      `at ${rate} actions/s the cold URLs need ${needed} listings of their own so that none comes round within the ${COLD_AGAIN_AFTER_MS / 60_000} minutes a page may stay cached, and have ${urlListings.length} (a third of those seeded): the cold mix would lean to browse pages each time they came round. Run again with --listings ${Math.ceil((needed * 3) / 10_000) * 10_000}`,
    );
  window = createWindow();
  pages = createWindow();
  hotPages = createWindow();
  coldPages = createWindow();

  // Open loop: actions start on a fixed schedule whatever the answers do, as visitors arrive.
  console.log(`Soak: ${args.minutes} min at ${rate} actions/s on ${args.db === "postgres" ? "PostgreSQL" : "SQLite"}`);
  const minutes: Minute[] = [];
  const jobFailures: string[] = [];
  const jobsRunning: Promise<void>[] = [];
  const started = performance.now();
  const end = started + args.minutes * 60_000;
  let nextMinute = started + 60_000;
  const runJob = (name: string) =>
    new Promise<void>((resolve) => {
      const child = spawn(process.execPath, [...JOB_SCRIPT, name], {
        cwd: ROOT,
        env,
        stdio: ["ignore", "ignore", "pipe"],
      });
      let err = "";
      child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      child.on("exit", (code) => {
        if (code !== 0) jobFailures.push(`${name} exited ${code}: ${err.trim().split("\n").at(-1)}`);
        resolve();
      });
    });
  jobsRunning.push(runJob(JOBS[0]));
  // Each minute's figures are taken at once; /metrics is read without holding up the schedule
  // (an overloaded server may take seconds to answer it), and the lines print in order.
  let taken = 0;
  let printed = Promise.resolve();
  // Where each minute's time went: the server's CPU a request, the database's, and the host's speed.
  const cpu = createCpuMeter(() => groupPids(pgid), postgres?.pids);
  // The database's statements read at the start and end of the first and last five judged minutes.
  const statementMinutes =
    args.minutes >= SETTLE_MINUTES + 10 ? [SETTLE_MINUTES, SETTLE_MINUTES + 5, args.minutes - 5, args.minutes] : [];
  const statementSnapshots = new Map<number, Promise<StatementSnapshot | null>>();
  const probe = startHostProbe();
  const sessionsBefore = postgres ? await readSessions(postgres.adminUrl, SOAK_DATABASE) : null;
  // Reading /metrics starts the event loop's figures afresh (prom-client resets them as it reads), so
  // the first minute's are its own, not the server's since it started (the warm-up, the capacity ramp).
  await serverFigures(base, metricsToken);
  const sample = () => {
    const figures = window.take();
    const pagesP99Ms = pages.take().p99Ms;
    const hotP99Ms = hotPages.take().p99Ms;
    const coldP99Ms = coldPages.take().p99Ms;
    const rssMb = residentMb(groupPids(pgid));
    const primaryRssMb = residentMb([pgid]);
    const used = cpu.take(figures.requests);
    const minute = ++taken;
    if (minute < args.minutes) jobsRunning.push(runJob(JOBS[minute % JOBS.length]));
    const server = serverFigures(base, metricsToken);
    const probeCpuMs = probe.measure();
    if (postgres && statementMinutes.includes(minute))
      statementSnapshots.set(minute, readStatements(postgres.adminUrl, SOAK_DATABASE));
    printed = printed.then(async () => {
      const record: Minute = {
        minute,
        rssMb,
        primaryRssMb,
        ...figures,
        pagesP99Ms,
        hotP99Ms,
        coldP99Ms,
        ...(await server),
        ...used,
        probeCpuMs: await probeCpuMs,
      };
      minutes.push(record);
      const statuses = figures.errorStatuses.length ? `  [${figures.errorStatuses.join(", ")}]` : "";
      console.log(formatMinute(record) + statuses);
    });
  };
  await openLoop(rate, end, (now) => {
    if (now < nextMinute) return false;
    nextMinute += 60_000;
    sample();
    return taken >= args.minutes;
  });
  await Promise.race([Promise.all(inFlight), sleep(15_000)]);
  await printed;
  // Answers that came after the last minute's line count in it; one never answered is an error.
  const rest = window.take();
  const last = minutes.at(-1);
  if (last) {
    last.errors += rest.errors + inFlight.size;
    last.limited += rest.limited;
  }
  await Promise.all(jobsRunning);
  await probe.close();
  const sessionsAfter = postgres ? await readSessions(postgres.adminUrl, SOAK_DATABASE) : null;
  if (sessionsBefore !== null && sessionsAfter !== null) {
    const opened = sessionsAfter - sessionsBefore;
    console.log(
      `PostgreSQL connections opened during the soak: ${opened} (${(opened / args.minutes).toFixed(1)} a minute; each minute's job opens its own)`,
    );
  }
  if (statementMinutes.length === 4) {
    const [a, b, c, d] = await Promise.all(statementMinutes.map((m) => statementSnapshots.get(m) ?? null));
    if (a && b && c && d) {
      const [m1, m2, m3, m4] = statementMinutes;
      console.log(formatStatementDrift(statementDrift([a, b], [c, d]), `${m1}-${m2} and ${m3}-${m4}`).join("\n"));
    }
  }
  traffic.close();

  // SIGTERM: each worker finishes its requests and writes the views it holds (server.ts), then exits.
  const exited = new Promise((resolve) => app.child.once("exit", resolve));
  app.stop();
  await Promise.race([exited, sleep(30_000)]);

  const writes = await checkLedger(where, traffic.ledger);
  const viewsAfter = await totalViews(where);
  const restarts = fs.readFileSync(serverLog, "utf8").match(/worker \d+ exited/g)?.length ?? 0;
  const checks: Check[] = [
    ...judge(minutes, writes, jobFailures),
    { name: "no worker restarts", pass: restarts === 0, detail: `${restarts} worker exits during the run` },
  ];
  console.log(`\nActions answered by kind: ${[...byKind].map(([k, n]) => `${k} ${n}`).join(", ")}`);
  console.log(`Views counted during the run: ${viewsAfter - viewsBefore} (listing pages asked for by new visitors)`);
  console.log(
    `Cold URLs drawn again within ${COLD_AGAIN_AFTER_MS / 60_000} minutes and passed over: ${nextCold.tooRecent}, listing pages ${nextCold.listingsTooRecent}${nextCold.listingsTooRecent > 0 ? " (the listings went round too fast: the cold mix leaned to other pages; more --listings would keep it even)" : ""}`,
  );
  for (const check of checks) console.log(`${check.pass ? "PASS" : "FAIL"}  ${check.name}: ${check.detail}`);
  if (args.record) {
    const run = {
      database: args.db === "postgres" ? ("PostgreSQL" as const) : ("SQLite" as const),
      server: postgres?.description,
      listings: args.listings,
      workers: args.workers,
      minutesAsked: args.minutes,
      steps,
      capacity: capacityRate,
      rate,
      minutes,
      checks,
      byKind: [...byKind],
      views: viewsAfter - viewsBefore,
    };
    const context = {
      date: new Date(),
      commit: currentCommit(ROOT),
      machine: describeMachine(),
      args: process.argv.slice(2),
    };
    appendRecord(BENCHMARKS_FILE, formatSoakRecord(run, context));
    console.log(`Recorded in ${path.relative(ROOT, BENCHMARKS_FILE)}`);
  }
  const failed = checks.filter((c) => !c.pass);
  if (failed.length > 0) {
    console.error(`\nThe soak failed: ${failed.map((c) => c.name).join(", ")}`);
    console.error(`Server log (last lines):\n${tail(serverLog)}`);
    process.exitCode = 1;
  } else console.log("\nThe soak passed.");
} catch (error) {
  console.error(`\nThe soak could not run: ${error instanceof Error ? error.message : error}`);
  const log = tail(serverLog);
  if (log) console.error(`Server log (last lines):\n${log}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
