// npm run bench -- [--listings N] [--database-url URL] [--short] ... (--help lists them)
// Seeds a database, starts the production server and measures the phases below
// with wrk; prints a table, the ratios and the budgets (docs/performance.md).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createRandom } from "../app/seed/random.ts";
import { BENCH_USAGE, type BenchOptions, parseBenchArgs } from "./bench/args.ts";
import { describeCacheCounts, parseCacheCounts } from "./bench/cache-metrics.ts";
import { loadCatalogue } from "./bench/catalogue.ts";
import { runColdCpuBench } from "./bench/cold-cpu.ts";
import { BROWSER_HEADERS, findStylesheetPath, getRaw, uncachedHeaders } from "./bench/http.ts";
import { requestEach, runLoad, timeShape } from "./bench/load.ts";
import { runOverloadBench } from "./bench/overload-run.ts";
import { buildApp, seed, startService, tail, waitUntilUp } from "./bench/processes.ts";
import { appendRecord, BENCHMARKS_FILE, currentCommit, describeMachine, formatRecord } from "./bench/record.ts";
import { formatReport } from "./bench/report.ts";
import { type BenchResults, checkBudgets, harnessProblems, ratios } from "./bench/results.ts";
import { prepareRun } from "./bench/setup.ts";
import { buildUrlSets } from "./bench/urls.ts";
import { createZipfSampler } from "./bench/zipf.ts";
import { searchShapes } from "./search-shapes.ts";

/**
 * Fresh URLs made per second of the cold phase: more than it can use on a
 * small machine. Should a faster one use them all, wrk starts again from the
 * first and the report says so.
 */
const COLD_URLS_PER_SECOND = 2_500;
/** Requests drawn for the hot mix, asked for in turn (wrk wraps round); more than a phase uses. */
const HOT_SEQUENCE = 1_000_000;
/** Popularity falls as 1/rank (Zipf's s = 1), as page views on most sites do. */
const ZIPF_EXPONENT = 1;

const parsed = parseBenchArgs(process.argv.slice(2));
if ("help" in parsed) {
  console.log(BENCH_USAGE);
  process.exit(0);
}
if ("error" in parsed) {
  console.error(`${parsed.error}\n\n${BENCH_USAGE}`);
  process.exit(2);
}
const args: BenchOptions = parsed;

// Known here, so the search shapes can carry a session cookie the server takes as signed.
const sessionSecret = process.env.SESSION_SECRET ?? randomBytes(32).toString("hex");
if (args.overload) process.exit(await runOverloadBench(args, prepareRun(args, sessionSecret)));
if (args.coldCpu) process.exit(await runColdCpuBench(args, prepareRun(args, sessionSecret)));
const { dataDir, base, env, serverLog, services, cleanUp } = prepareRun(args, sessionSecret);
const bareBase = `http://127.0.0.1:${args.port + 1}`;

const seconds = (started: number) => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const started = performance.now();
try {
  console.log(
    "The build: npm run build, unless it is newer than every file it is made from (a stale one would measure old code)...",
  );
  buildApp(env);
  seed(env, args.listings);

  // One seeded generator for every random choice, so a run can be repeated.
  const random = createRandom(0xbe7c4);
  const coldWanted = args.duration * COLD_URLS_PER_SECOND;
  const catalogue = await loadCatalogue({
    databaseUrl: args.databaseUrl,
    dataDir,
    wanted: args.hotUrls + coldWanted,
    random,
  });
  const listings = catalogue.groups.reduce((sum, g) => sum + g.count, 0);
  const { hot, cold } = buildUrlSets(catalogue, random, { hot: args.hotUrls, cold: coldWanted });
  if (hot.length < args.hotUrls)
    throw new Error(`only ${hot.length} distinct hot URLs could be made from ${listings} listings`);
  console.log(`URL mixes: ${hot.length} hot URLs, ${cold.length} fresh ones for the cold mix (${seconds(started)})`);

  const app = startService("server.ts", [], env, serverLog);
  services.push(app);
  await waitUntilUp(`${base}/`, app);

  const home = await fetch(`${base}/`, { headers: BROWSER_HEADERS });
  const stylesheetPath = findStylesheetPath(await home.text());
  if (!stylesheetPath) throw new Error("the home page names no /assets/app-*.css stylesheet");
  const stylesheet = await getRaw(base + stylesheetPath, BROWSER_HEADERS);
  if (stylesheet.status !== 200) throw new Error(`${stylesheetPath} answered ${stylesheet.status}`);
  const encoding = String(stylesheet.headers["content-encoding"] ?? "");
  const bodyFile = path.join(dataDir, "stylesheet.body");
  fs.writeFileSync(bodyFile, stylesheet.body);
  const bareArgs = [String(args.port + 1), bodyFile, String(stylesheet.headers["content-type"]), encoding];
  const bare = startService("scripts/bench/bare-server.ts", bareArgs, env, path.join(dataDir, "bare.log"));
  services.push(bare);
  await waitUntilUp(`${bareBase}/`, bare);

  const load = { connections: args.connections, headers: BROWSER_HEADERS, seconds: args.duration };
  const perPhase = `${args.duration} s, ${args.connections} connections`;
  console.log(`(a) bare node:http server sending the stylesheet's bytes (${perPhase})...`);
  const barePhase = await runLoad({ ...load, base: bareBase, paths: [stylesheetPath] });
  console.log(`(b) the stylesheet from the app (${perPhase})...`);
  const staticPhase = await runLoad({ ...load, base, paths: [stylesheetPath] });

  // The hot mix measures pages a page cache has already seen, as real traffic finds them: each is
  // asked for once, then the mix starts at once. Whatever the server does in the background after
  // a page's first hits (compressing it smaller, ADR 045) runs during the measurement, as it would
  // during a start-of-term burst; waiting for it to finish first hid its cost (ADR 095). With
  // several workers, a page one renders reaches the others over their own sockets (ADR 061, 122).
  // Drawn before the warm-up, so that nothing but starting wrk comes between the two.
  const rank = createZipfSampler(hot.length, ZIPF_EXPONENT, () => random.next());
  const hotPaths = Array.from({ length: HOT_SEQUENCE }, () => hot[rank()]);
  console.log(`    warm-up: each of the ${hot.length} hot URLs once (not measured)...`);
  const warmUp = await requestEach(base, hot, args.connections, BROWSER_HEADERS);
  const cacheBeforeHot = parseCacheCounts(await metricsText(base));
  console.log(`(c) hot mix: ${hot.length} URLs, Zipf-like popularity, right after the warm-up (${perPhase})...`);
  const hotPhase = await runLoad({ ...load, base, paths: hotPaths });
  const afterHot = await metricsText(base);
  const waitingAfterHot = compressionsWaiting(afterHot);
  // What the misses were: pages dropped since the warm-up, by why, and pages a worker refused from another.
  const hotCache = describeCacheCounts(cacheBeforeHot, parseCacheCounts(afterHot));
  console.log(`    ${waitingAfterHot} pages waited to be compressed smaller when (c) ended; ${hotCache}`);
  console.log(`(d) cold mix: every request a URL not asked for before (${perPhase})...`);
  const coldPhase = await runLoad({ ...load, base, paths: cold });

  const shapes = [];
  for (const shape of searchShapes()) {
    console.log(`(e) search shape "${shape.name}": ${args.shapeRequests} requests, 1 connection...`);
    shapes.push(await timeShape(base, shape, args.shapeRequests, uncachedHeaders(sessionSecret)));
  }

  const results: BenchResults = {
    listings,
    database: args.databaseUrl ? "PostgreSQL" : "SQLite",
    short: args.short,
    workers: args.workers,
    stylesheet: { path: stylesheetPath, encoding, bytes: stylesheet.body.length },
    phases: {
      bare: barePhase,
      static: staticPhase,
      warmUp: { ...warmUp, urls: hot.length, note: "not measured" },
      hot: {
        ...hotPhase,
        urls: hot.length,
        note: `${waitingAfterHot} pages waiting to be compressed smaller at its end; ${hotCache}`,
      },
      cold: {
        ...coldPhase,
        urls: coldPhase.requests,
        note:
          coldPhase.requests > cold.length
            ? `asked for more than the ${cold.length} fresh URLs: some twice`
            : undefined,
      },
    },
    shapes,
  };
  const budgets = checkBudgets(results);
  const problems = harnessProblems(results);
  console.log(`\n${formatReport(results, budgets, problems)}\n\nTotal time ${seconds(started)}.`);
  if (args.json) {
    fs.writeFileSync(
      args.json,
      `${JSON.stringify({ ...results, ratios: ratios(results.phases), budgets, problems }, null, 2)}\n`,
    );
    console.log(`Results written to ${args.json}`);
  }
  if (args.record && problems.length === 0) {
    const section = formatRecord(results, budgets, {
      date: new Date(),
      commit: currentCommit(),
      machine: describeMachine(),
      args: process.argv.slice(2),
    });
    appendRecord(BENCHMARKS_FILE, section);
    console.log("Figures appended to docs/benchmarks.md");
  } else if (args.record) {
    console.error("Not recorded in docs/benchmarks.md: the harness did not work.");
  }
  if (problems.length > 0) {
    console.error(`\nServer log (last lines):\n${tail(serverLog)}`);
    process.exitCode = 1;
  } else if (args.check && budgets.some((b) => !b.pass)) {
    process.exitCode = 1;
  }
} catch (error) {
  console.error(`\nThe benchmark failed: ${error instanceof Error ? error.message : error}`);
  const log = tail(serverLog);
  if (log) console.error(`Server log (last lines):\n${log}`);
  process.exitCode = 1;
} finally {
  cleanUp();
}

/** The server's /metrics (the bench asks from this machine, so it may). */
async function metricsText(base: string): Promise<string> {
  const metrics = await getRaw(`${base}/metrics`, {});
  if (metrics.status !== 200) throw new Error(`${base}/metrics answered ${metrics.status}`);
  return metrics.body.toString();
}

/** How many cached pages wait to be compressed smaller, as /metrics says. */
function compressionsWaiting(metrics: string): number {
  const found = /^bodima_page_cache_compressions_waiting (\d+)/m.exec(metrics);
  if (!found) throw new Error("/metrics has no bodima_page_cache_compressions_waiting");
  return Number(found[1]);
}
