// `npm run soak -- --record` appends the run to docs/benchmarks.md, as the
// benchmark does (scripts/bench/record.ts): the capacity steps, every minute and
// the checks, with the machine and the commit, so nobody copies tables by hand.
import { describeCommit, type RunContext, utc } from "../bench/record.ts";
import { CAPACITY_STEP_SECONDS, type CapacityStep } from "./capacity.ts";
import { type Check, cpuPerRequest, type Minute } from "./verdict.ts";

export type SoakRun = {
  database: "SQLite" | "PostgreSQL";
  /** The PostgreSQL server and its autovacuum setting (scripts/soak/postgres-server.ts). */
  server?: string;
  listings: number;
  workers: number;
  minutesAsked: number;
  /** The capacity measurement's steps (none when --rate was given), the capacity and the rate soaked at. */
  steps: readonly CapacityStep[];
  capacity: number | null;
  rate: number;
  minutes: readonly Minute[];
  checks: readonly Check[];
  /** Actions answered by kind, in the order they were first seen. */
  byKind: readonly (readonly [string, number])[];
  views: number;
};

const number = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const MB = 1024 * 1024;
const ms = (value: number | null | undefined) => (value === null || value === undefined ? "–" : value.toFixed(1));

function minuteRow(m: Minute): string {
  const caches = m.pageCacheBytes === null ? null : m.pageCacheBytes / MB;
  const limit =
    m.limitKeys === null ? "–" : `${number.format(m.limitKeys)}${m.fullestLimit ? ` (${m.fullestLimit})` : ""}`;
  return [
    "",
    m.minute,
    `${number.format(m.rssMb)} MB`,
    caches === null ? "–" : `${number.format(m.rssMb - caches)} MB`,
    `${ms(m.loopP99Ms)} / ${ms(m.loopMaxMs)} ms`,
    number.format(m.requests),
    `${ms(m.p50Ms)} / ${ms(m.p99Ms)} ms`,
    `${ms(m.pagesP99Ms)} ms${m.hotP99Ms === undefined ? "" : ` (${ms(m.hotP99Ms)} / ${ms(m.coldP99Ms)})`}`,
    m.errors,
    m.limited,
    m.late,
    caches === null ? "–" : `${caches.toFixed(1)} MB`,
    limit,
    cpuPerRequest(m),
    m.probeCpuMs == null ? "–" : `${m.probeCpuMs.toFixed(1)} ms / ${((m.steal ?? 0) * 100).toFixed(1)}%`,
    "",
  ]
    .join(" | ")
    .trim();
}

/** One soak as a dated markdown section (under benchmarks.md's "Recorded runs"). */
export function formatSoakRecord(run: SoakRun, context: RunContext): string {
  const date = utc(context.date);
  const commit = describeCommit(context.commit);
  const passed = run.checks.every((c) => c.pass);
  const capacity =
    run.capacity === null
      ? `rate given: ${number.format(run.rate)} actions/s`
      : `${run.steps.map((s) => `${s.rate}/s${s.seconds > CAPACITY_STEP_SECONDS ? ` held ${s.seconds} s` : ""}: pages' p99 ${number.format(s.p99Ms)} ms${s.errors ? `, ${s.errors} errors` : ""}`).join("; ")}. Capacity ${run.capacity} actions/s; soaked at ${run.rate}/s`;
  const lines = [
    `### ${date}: Soak: ${run.database}, ${number.format(run.listings)} listings, ${run.workers} worker${run.workers === 1 ? "" : "s"}, ${run.minutesAsked} minutes: ${passed ? "passed" : "failed"}`,
    "",
    `- Command: \`${["npm run soak --", ...context.args].join(" ")}\``,
    `- Commit: ${commit}`,
    `- Machine: ${context.machine.cores} cores, ${context.machine.cpuModel}`,
    ...(run.server ? [`- Database server: ${run.server}`] : []),
    `- Capacity (open loop, ADRs 103, 132 and 136): ${capacity}`,
    `- Answered by kind: ${run.byKind.map(([kind, n]) => `${kind} ${number.format(n)}`).join(", ")}; views counted ${number.format(run.views)}`,
    "",
    "| Minute | RSS | RSS less page caches | Event loop p99 / max | Requests | p50 / p99 | Pages p99 (hot / cold) | Errors | 429 | Late | Page caches | Fullest limit store | CPU a request (server + database) | Host probe / steal |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...run.minutes.map(minuteRow),
    "",
    "| Check | Result | Measured |",
    "| --- | --- | --- |",
    ...run.checks.map((c) => `| ${c.name} | ${c.pass ? "met" : "**not met**"} | ${c.detail.replaceAll("|", "\\|")} |`),
  ];
  return `${lines.join("\n")}\n`;
}
