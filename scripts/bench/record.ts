// `npm run bench -- --record` appends each measured run to docs/benchmarks.md,
// so dated figures are written by the benchmark, never copied into tables by
// hand (docs/performance.md, "Recording a run").
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BenchResults, BudgetCheck } from "./results.ts";
import { ratios } from "./results.ts";

/** Where a recorded run goes: the repository's docs/benchmarks.md, wherever the command runs from. */
export const BENCHMARKS_FILE = path.resolve(import.meta.dirname, "../../docs/benchmarks.md");

export type RunContext = {
  /** When the run finished. */
  date: Date;
  /** Short hash of HEAD, and whether the work tree differed from it. */
  commit: { hash: string; dirty: boolean } | null;
  /** The machine, as os.cpus() describes it: load moves every figure, so a run names its host. */
  machine: { cores: number; cpuModel: string };
  /** The command line after `npm run bench --`, to repeat the run. */
  args: readonly string[];
};

const number = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;
const ms = (value: number) => value.toFixed(1);

/** This process's machine. */
export function describeMachine(): RunContext["machine"] {
  const cpus = os.cpus();
  return { cores: cpus.length, cpuModel: cpus[0]?.model.trim() || "unknown CPU" };
}

/**
 * HEAD's short hash and whether tracked files differ from it; null outside a git clone. The records
 * themselves (docs/benchmarks.md) do not count: a run recorded after another, both on the same code,
 * is not marked as made on changed code.
 */
export function currentCommit(cwd = process.cwd()): RunContext["commit"] {
  try {
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    const hash = git("rev-parse", "--short", "HEAD").trim();
    const status = git(
      "status",
      "--porcelain",
      "--untracked-files=no",
      "--",
      ":(top)",
      ":(top,exclude)docs/benchmarks.md",
    );
    return { hash, dirty: status.trim() !== "" };
  } catch {
    return null;
  }
}

/** A record's heading time: "2026-11-29 15:17 UTC". */
export function utc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** The commit line of a record: the hash, marked when tracked files differed from it. */
export function describeCommit(commit: RunContext["commit"]): string {
  return commit ? `\`${commit.hash}\`${commit.dirty ? " with uncommitted changes" : ""}` : "unknown (not a git clone)";
}

/** One run as a dated markdown section (under benchmarks.md's "Recorded runs"): the phases, the budgets and every search shape. */
export function formatRecord(results: BenchResults, budgets: readonly BudgetCheck[], context: RunContext): string {
  const { phases } = results;
  const r = ratios(phases);
  const workers = `${results.workers} worker${results.workers === 1 ? "" : "s"}`;
  const commit = describeCommit(context.commit);
  const command = ["npm run bench --", ...context.args].join(" ");
  const lines = [
    `### ${utc(context.date)}: ${results.database}, ${number.format(results.listings)} listings, ${workers}`,
    "",
    `- Command: \`${command}\``,
    `- Commit: ${commit}`,
    `- Machine: ${context.machine.cores} cores, ${context.machine.cpuModel}; bare \`node:http\` ${number.format(phases.bare.requestsPerSecond)} req/s (compare ratios, not req/s, between machines)`,
    "",
    "| Phase | req/s | p50 ms | p99 ms | Share |",
    "| --- | --- | --- | --- | --- |",
    `| (a) bare \`node:http\` | ${number.format(phases.bare.requestsPerSecond)} | ${ms(phases.bare.p50)} | ${ms(phases.bare.p99)} | – |`,
    `| (b) static | ${number.format(phases.static.requestsPerSecond)} | ${ms(phases.static.p50)} | ${ms(phases.static.p99)} | ${percent(r.staticToBare)} of (a) |`,
    `| (c) hot mix | ${number.format(phases.hot.requestsPerSecond)} | ${ms(phases.hot.p50)} | ${ms(phases.hot.p99)} | ${percent(r.hotToStatic)} of (b) |`,
    `| (d) cold mix | ${number.format(phases.cold.requestsPerSecond)} | ${ms(phases.cold.p50)} | ${ms(phases.cold.p99)} | ${percent(r.coldToStatic)} of (b) |`,
    "",
    "| Budget | Measured | Result |",
    "| --- | --- | --- |",
    ...budgets.map((b) => `| ${b.budget} | ${b.measured} | ${b.pass ? "met" : "**not met**"} |`),
  ];
  if (results.shapes.length > 0) {
    const within = results.shapes.filter((s) => s.p95 <= 50).length;
    lines.push(
      "",
      `Search shapes, one connection, ${results.shapes[0].requests} requests each: ${within} of ${results.shapes.length} within 50 ms p95.`,
      "",
      "| Shape | p50 ms | p95 ms |",
      "| --- | --- | --- |",
      ...results.shapes.map((s) => `| ${s.name} | ${ms(s.p50)} | ${s.p95 > 50 ? `**${ms(s.p95)}**` : ms(s.p95)} |`),
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Appends a section to the record, newest last, separated by one blank line. */
export function appendRecord(file: string, section: string): void {
  const existing = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  const separator = existing === "" ? "" : existing.endsWith("\n\n") ? "" : existing.endsWith("\n") ? "\n" : "\n\n";
  fs.appendFileSync(file, `${separator}${section}`);
}
