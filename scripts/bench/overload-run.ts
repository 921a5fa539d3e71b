// The --overload run of `npm run bench` (docs/performance.md, "Overload"): seeds, starts the
// production server as `npm start` does, measures the crowd and prints, records and checks it.
import { createRandom } from "../../app/seed/random.ts";
import type { BenchOptions } from "./args.ts";
import { loadCatalogue } from "./catalogue.ts";
import { BROWSER_HEADERS } from "./http.ts";
import { measureOverload } from "./overload.ts";
import { checkOverloadBudgets, formatOverload, type OverloadSetting } from "./overload-report.ts";
import { buildApp, seed, startService, tail, waitUntilUp } from "./processes.ts";
import { appendRecord, BENCHMARKS_FILE, currentCommit, describeMachine } from "./record.ts";
import type { BenchRun } from "./setup.ts";
import { buildUrlSets } from "./urls.ts";

/** The baseline: what 8 connections of never-cached pages get rendered. */
const BASELINE = { connections: 8, seconds: 15 };
/** Fresh URLs made per second of load: more than the 503s of a small machine use up. */
const URLS_PER_SECOND = 4_000;
/** PAGE_CACHE_MB's default (app/env.server.ts). */
const DEFAULT_PAGE_CACHE_MB = 128;

/** Runs the overload measurement; resolves with the process's exit code. */
export async function runOverloadBench(args: BenchOptions, run: BenchRun): Promise<number> {
  const { env, base, serverLog } = run;
  try {
    console.log(
      "The build: npm run build, unless it is newer than every file it is made from (a stale one would measure old code)...",
    );
    buildApp(env);
    seed(env, args.listings);
    const random = createRandom(0x0b1d);
    const wanted = (BASELINE.seconds + args.duration) * URLS_PER_SECOND;
    const catalogue = await loadCatalogue({ databaseUrl: args.databaseUrl, dataDir: run.dataDir, wanted, random });
    const { cold } = buildUrlSets(catalogue, random, { hot: 20, cold: wanted });
    console.log(`${cold.length} never-cached URLs made`);

    const app = startService("server.ts", [], env, serverLog);
    run.services.push(app);
    await waitUntilUp(`${base}/`, app);
    if (app.child.pid === undefined) throw new Error("the server has no process id");

    const results = await measureOverload({
      base,
      groupPid: app.child.pid,
      headers: BROWSER_HEADERS,
      cold,
      cachedPath: "/",
      baselineSeconds: BASELINE.seconds,
      baselineConnections: BASELINE.connections,
      burstSeconds: args.duration,
      burstConnections: args.connections,
      log: console.log,
    });
    const setting: OverloadSetting = {
      database: args.databaseUrl ? "PostgreSQL" : "SQLite",
      listings: args.listings,
      workers: args.workers,
      pageCacheMb: Number(env.PAGE_CACHE_MB || DEFAULT_PAGE_CACHE_MB),
    };
    const budgets = checkOverloadBudgets(results, setting);
    console.log(`\n${formatOverload(results, budgets, setting)}`);
    if (results.baseline.requests === 0 || results.burst.requests === 0) {
      console.error(`The harness did not work: a phase got no answer.\nServer log (last lines):\n${tail(serverLog)}`);
      return 1;
    }
    if (args.record) {
      const context = {
        date: new Date(),
        commit: currentCommit(),
        machine: describeMachine(),
        args: process.argv.slice(2),
      };
      appendRecord(BENCHMARKS_FILE, formatOverload(results, budgets, setting, context));
      console.log("Figures appended to docs/benchmarks.md");
    }
    return args.check && budgets.some((b) => !b.pass) ? 1 : 0;
  } catch (error) {
    console.error(`\nThe benchmark failed: ${error instanceof Error ? error.message : error}`);
    const log = tail(serverLog);
    if (log) console.error(`Server log (last lines):\n${log}`);
    return 1;
  } finally {
    run.cleanUp();
  }
}
