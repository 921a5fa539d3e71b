// The overload run's budgets and how it is printed and recorded (docs/performance.md, "Overload").
import type { OverloadResults } from "./overload.ts";
import { describeCommit, type RunContext, utc } from "./record.ts";
import type { BudgetCheck, PhaseResult } from "./results.ts";

export type OverloadSetting = {
  database: "SQLite" | "PostgreSQL";
  listings: number;
  workers: number;
  /** PAGE_CACHE_MB: each worker's page cache may grow to this. */
  pageCacheMb: number;
};

const ms = (value: number) => `${Math.round(value)} ms`;
const mb = (value: number) => `${Math.round(value)} MB`;
const perSecond = (value: number) => `${value.toFixed(1)}/s`;

/** Pages rendered per second: answers the cache did not have (X-Page-Cache: MISS). */
export function renderedPerSecond(phase: PhaseResult): number {
  return (phase.pageCache?.MISS ?? 0) / phase.seconds;
}

/** Answers by kind: 2xx, 503 with Retry-After, and anything else (which fails the run). */
export function answerKinds(phase: PhaseResult): { ok: number; busy: number; other: Record<string, number> } {
  let ok = 0;
  let busy = 0;
  const other: Record<string, number> = {};
  for (const [status, n] of Object.entries(phase.statusCodes)) {
    const code = Number(status);
    if (code >= 200 && code < 300) ok += n;
    else if (code === 503) busy += n;
    else other[status] = n;
  }
  return { ok, busy, other };
}

export function checkOverloadBudgets(results: OverloadResults, setting: OverloadSetting): BudgetCheck[] {
  const { burst, baseline, cachedProbe, single, memory, processes } = results;
  const kinds = answerKinds(burst);
  const otherText = Object.entries(kinds.other)
    .map(([status, n]) => `${n} × ${status}`)
    .join(", ");
  const rendered = renderedPerSecond(burst);
  const baseRendered = renderedPerSecond(baseline);
  const allowanceMb = setting.pageCacheMb * setting.workers + 150;
  const grewMb = memory.afterMb - memory.beforeMb;
  const restarted = processes.before.filter((pid) => !processes.after.includes(pid)).length;
  return [
    {
      budget: "every request answered (no timeout at 10 s, no reset)",
      measured: `${burst.errors} unanswered`,
      pass: burst.errors === 0,
    },
    { budget: "p99 of answers ≤ 2 s", measured: ms(burst.p99), pass: burst.p99 <= 2_000 },
    {
      budget: "only 2xx, or 503 with Retry-After",
      measured: `${kinds.ok} × 2xx, ${kinds.busy} × 503${otherText ? `, ${otherText}` : ""}`,
      pass: otherText === "" && kinds.ok > 0,
    },
    {
      budget: "pages rendered ≥ 80% of the baseline's",
      measured: `${perSecond(rendered)} of ${perSecond(baseRendered)} (${((rendered / baseRendered) * 100).toFixed(0)}%)`,
      pass: rendered >= 0.8 * baseRendered,
    },
    {
      budget: "cached page on a new connection p99 ≤ 250 ms",
      measured:
        `${ms(cachedProbe.p99)} (${cachedProbe.requests} asked, ${cachedProbe.failures} failed` +
        `${cachedProbe.connectP99 === undefined ? "" : `; connecting alone p99 ${ms(cachedProbe.connectP99)}`}` +
        `${cachedProbe.openingP99 === undefined ? "" : `; first 5 s p99 ${ms(cachedProbe.openingP99)}, after ${ms(cachedProbe.laterP99 ?? Number.NaN)}`})`,
      pass: cachedProbe.p99 <= 250 && cachedProbe.failures === 0,
    },
    {
      budget: "single requests 3 s after as fast as before (≤ 1.5×)",
      measured: `${ms(single.after)} after, ${ms(single.before)} before`,
      pass: single.after <= 1.5 * single.before,
    },
    { budget: "no worker restarts", measured: `${restarted} restarted`, pass: restarted === 0 },
    {
      budget: `memory 10 s after ≤ start + page caches + 150 MB (${mb(allowanceMb)})`,
      measured: `${mb(memory.beforeMb)} → ${mb(memory.afterMb)} (${grewMb >= 0 ? "+" : ""}${mb(grewMb)})`,
      pass: grewMb <= allowanceMb,
    },
  ];
}

function phaseLine(name: string, phase: PhaseResult): string {
  const kinds = answerKinds(phase);
  return (
    `| ${name} | ${phase.connections} | ${Math.round(phase.requestsPerSecond)} | ${perSecond(renderedPerSecond(phase))} | ` +
    `${kinds.busy} | ${ms(phase.p50)} | ${ms(phase.p99)} | ${phase.errors} |`
  );
}

/** Where the memory was before the burst and 10 s after it, when /metrics could tell. */
function memoryLines(memory: OverloadResults["memory"]): string[] {
  const { before, after } = memory;
  if (!before || !after) return [];
  const row = (name: string, parts: NonNullable<typeof before>, rss: number, file = Number.NaN) =>
    `| ${name} | ${mb(rss)} | ${Number.isNaN(file) ? "–" : mb(file)} | ${mb(parts.heapTotal)} (${mb(parts.heapUsed)} used) | ${mb(parts.external)} | ${mb(parts.pageCache)} | ${mb(rss - (Number.isNaN(file) ? 0 : file) - parts.heapTotal - parts.external)} |`;
  return [
    "| Memory | Resident (all processes) | of which mapped files | Workers' V8 heap | Outside the heap (Buffers) | of which page caches | Rest (SQLite's cache, code, stacks, allocator, primary) |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    row("before the burst", before, memory.beforeMb, memory.fileBeforeMb),
    row("10 s after", after, memory.afterMb, memory.fileAfterMb),
    "",
  ];
}

/** The run as markdown: printed, and appended to docs/benchmarks.md with --record. */
export function formatOverload(
  results: OverloadResults,
  budgets: readonly BudgetCheck[],
  setting: OverloadSetting,
  context?: RunContext,
): string {
  const workers = `${setting.workers} worker${setting.workers === 1 ? "" : "s"}`;
  const lines = [
    `### ${context ? `${utc(context.date)}: ` : ""}Overload: ${setting.database}, ${setting.listings.toLocaleString("en-US")} listings, ${workers}`,
    "",
  ];
  if (context) {
    const commit = describeCommit(context.commit);
    lines.push(
      `- Command: \`${["npm run bench --", ...context.args].join(" ")}\``,
      `- Commit: ${commit}`,
      `- Machine: ${context.machine.cores} cores, ${context.machine.cpuModel}`,
      "",
    );
  }
  lines.push(
    "| Phase | Connections | Answers/s | Rendered/s | 503 | p50 | p99 | Unanswered |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    phaseLine("baseline", results.baseline),
    phaseLine("burst", results.burst),
    "",
    ...memoryLines(results.memory),
    "| Budget | Measured | Result |",
    "| --- | --- | --- |",
    ...budgets.map((b) => `| ${b.budget} | ${b.measured} | ${b.pass ? "met" : "**not met**"} |`),
  );
  return `${lines.join("\n")}\n`;
}
