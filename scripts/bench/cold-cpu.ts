// The --cold-cpu run of `npm run bench` (docs/performance.md, "Where a cold page's time goes"):
// the CPU the server spends on a page it must render, by kind of page. The cold mix's share of
// static moves with the static phase as much as with the renders (a slow host slows both, by
// different amounts), so two builds are compared by this instead: each run in its own checkout,
// one after the other on the same machine, and again in the other order.
import { createRandom } from "../../app/seed/random.ts";
import { processCpuMs, processTree } from "../soak/host.ts";
import type { BenchOptions } from "./args.ts";
import { loadCatalogue } from "./catalogue.ts";
import { BROWSER_HEADERS } from "./http.ts";
import { requestEach } from "./load.ts";
import { buildApp, seed, startService, tail, waitUntilUp } from "./processes.ts";
import type { BenchRun } from "./setup.ts";
import { buildUrlSets } from "./urls.ts";

export const COLD_KINDS = [
  "listing page",
  "browse page",
  "university, city or search page",
  "JSON list",
  "JSON ad",
  "other",
] as const;
export type ColdKind = (typeof COLD_KINDS)[number];

/** Rounds measured per kind, after one unmeasured round of every kind (the JIT warming up). */
const ROUNDS = 3;
/** URLs per kind and round: enough for the CPU clock's 10 ms ticks to round away. */
const PER_ROUND = 200;
const WARM_UP = 50;

export function kindOf(path: string): ColdKind {
  if (path.startsWith("/listing/")) return "listing page";
  if (path.startsWith("/browse")) return "browse page";
  if (/^\/(university|city|search)\//.test(path)) return "university, city or search page";
  if (/^\/api\/listings(\?|$)/.test(path)) return "JSON list";
  if (path.startsWith("/api/listings/")) return "JSON ad";
  return "other";
}

export function byKind(paths: readonly string[]): Map<ColdKind, string[]> {
  const groups = new Map<ColdKind, string[]>();
  for (const path of paths) {
    const kind = kindOf(path);
    const group = groups.get(kind) ?? [];
    group.push(path);
    groups.set(kind, group);
  }
  return groups;
}

export type KindCpu = { kind: ColdKind; share: number; perRound: number[]; notOk: number };

/** Milliseconds of CPU a page, per round: the median and the spread; and the mix's mean, weighted by share. */
export function formatColdCpu(results: readonly KindCpu[], setting: string): string {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  // A kind with too few URLs for a round is left out, of the rows and of the mix's mean alike.
  const measured = results.filter((r) => r.perRound.length > 0);
  const rows = measured.map((r) => {
    const spread = `${Math.min(...r.perRound).toFixed(2)}–${Math.max(...r.perRound).toFixed(2)}`;
    const failed = r.notOk > 0 ? `  (${r.notOk} answers not 200)` : "";
    return `${r.kind.padEnd(32)} ${`${(100 * r.share).toFixed(1)}%`.padStart(6)}   ${median(r.perRound).toFixed(2).padStart(6)} ms   ${spread} ms${failed}`;
  });
  const weight = measured.reduce((sum, r) => sum + r.share, 0);
  const mean = measured.reduce((sum, r) => sum + r.share * median(r.perRound), 0) / (weight || 1);
  return [
    `CPU a cold page, by kind (${setting})`,
    `${"Kind".padEnd(32)} ${"Share".padStart(6)}   ${"Median".padStart(9)}   Rounds`,
    ...rows,
    `The cold mix, weighted by share: ${mean.toFixed(2)} ms a page`,
  ].join("\n");
}

/** Runs the measurement; resolves with the process's exit code. */
export async function runColdCpuBench(args: BenchOptions, run: BenchRun): Promise<number> {
  const { env, base, serverLog } = run;
  try {
    buildApp(env);
    seed(env, args.listings);
    const random = createRandom(0xc01d);
    const wanted = 20 * PER_ROUND * ROUNDS;
    const catalogue = await loadCatalogue({ databaseUrl: args.databaseUrl, dataDir: run.dataDir, wanted, random });
    const { cold } = buildUrlSets(catalogue, random, { hot: 20, cold: wanted });
    const groups = byKind(cold);
    // Each kind's share of the whole mix, before the warm-up and the rounds use its URLs up.
    const results: KindCpu[] = COLD_KINDS.map((kind) => ({
      kind,
      share: (groups.get(kind)?.length ?? 0) / cold.length,
      perRound: [],
      notOk: 0,
    }));

    const app = startService("server.ts", [], env, serverLog);
    run.services.push(app);
    await waitUntilUp(`${base}/`, app);
    if (app.child.pid === undefined) throw new Error("the server has no process id");
    const pids = processTree(app.child.pid);
    const take = (kind: ColdKind, n: number) => (groups.get(kind) ?? []).splice(0, n);

    console.log(`Warming up: ${WARM_UP} URLs of each kind (not measured)...`);
    for (const kind of COLD_KINDS) await requestEach(base, take(kind, WARM_UP), args.connections, BROWSER_HEADERS);
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(
        `Round ${round} of ${ROUNDS}: up to ${PER_ROUND} URLs of each kind, ${args.connections} connections...`,
      );
      for (const result of results) {
        const paths = take(result.kind, PER_ROUND);
        if (paths.length < PER_ROUND / 4) continue;
        const before = processCpuMs(pids);
        const phase = await requestEach(base, paths, args.connections, BROWSER_HEADERS);
        result.perRound.push((processCpuMs(pids) - before) / paths.length);
        result.notOk += phase.errors + paths.length - (phase.statusCodes[200] ?? 0);
      }
    }
    const database = args.databaseUrl ? "PostgreSQL" : "SQLite";
    const setting = `${args.listings.toLocaleString("en-US")} listings on ${database}, ${args.workers} worker${args.workers === 1 ? "" : "s"}, ${args.connections} connections`;
    console.log(`\n${formatColdCpu(results, setting)}`);
    return results.some((r) => r.notOk > 0) ? 1 : 0;
  } catch (error) {
    console.error(`\nThe --cold-cpu run failed: ${error instanceof Error ? error.message : String(error)}`);
    console.error(`Server log (last lines):\n${tail(serverLog)}`);
    return 1;
  } finally {
    run.cleanUp();
  }
}
