/**
 * `npm test`: every test tier in order (ADR 073), each under a header of its own and followed by the
 * time it took; the first tier that fails stops the run with one line naming it. `npm test -- system
 * bench` runs only the tiers named, still in this order. A tier `beside` another starts with it and runs
 * at the same time, its output held and shown under its own header once both have ended (ADR 099).
 */
import { spawn } from "node:child_process";

export type Tier = {
  name: string;
  what: string;
  commands: string[][];
  env?: NodeJS.ProcessEnv;
  /** Runs at the same time as the tier named, when both are chosen; the run order is kept for the outcome. */
  beside?: string;
  /** Runs once when the tier fails, for what it explains (its code is ignored): the tier fails all the same. */
  onFailure?: { what: string; command: string[]; env: NodeJS.ProcessEnv };
};

/** Fewer kill -9 rounds than crash.spec.ts's twenty when nobody sets CRASH_ROUNDS: ADR 073 says why. */
export const CRASH_ROUNDS_IN_NPM_TEST = "8";

/** Where the browser tier's Playwright run lists the tests that failed (its output folder's .last-run.json). */
const FAILED_BROWSER_TESTS = "test-results/browser/.last-run.json";

export const tiers: Tier[] = [
  {
    name: "static",
    what: "type check and lint",
    commands: [
      ["npm", "run", "typecheck"],
      ["npm", "run", "lint"],
    ],
    // No Vitest test reads what these two write (route types, build/); the unit tier mostly waits on
    // databases and child processes, so they use the cores it leaves idle (ADR 099).
    beside: "unit",
  },
  { name: "unit", what: "unit and integration tests (Vitest)", commands: [["npm", "run", "test:unit"]] },
  { name: "build", what: "production build", commands: [["npm", "run", "build"]], beside: "unit" },
  {
    name: "browser",
    what: "browser tests (Playwright, tests/e2e)",
    commands: [["npm", "run", "test:e2e"]],
    // The run's own traces leave out DOM snapshots and network, a tenth of the tier's time (ADR 112):
    // the tests that failed run once more, recording everything, into their own folder.
    onFailure: {
      what: "the failed browser tests once more, recording full traces",
      command: [
        "npx",
        "playwright",
        "test",
        "--last-failed",
        `--last-failed-file=${FAILED_BROWSER_TESTS}`,
        "--output=test-results/browser-retraced",
      ],
      env: { BROWSER_TRACES: "full" },
    },
  },
  {
    name: "system",
    what: "system tests (Playwright, tests/system: clusters, nginx, Redis, kill -9)",
    commands: [["npm", "run", "test:system"]],
    env: { CRASH_ROUNDS: process.env.CRASH_ROUNDS || CRASH_ROUNDS_IN_NPM_TEST },
  },
  { name: "bench", what: "benchmark, short mode", commands: [["npm", "run", "bench", "--", "--short"]] },
];

/** "8.3 s", "4 min 05 s". */
export function formatDuration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, "0")} s`;
}

/** Lines of a passing tier's held output shown when a tier beside it failed. */
export const PASSED_BESIDE_LINES = 5;

/** The last lines of a held output, saying how many were left out above them. */
export function lastLines(held: string, count = PASSED_BESIDE_LINES): string {
  const lines = held.replace(/\n$/, "").split("\n");
  if (lines.length <= count) return lines.join("\n");
  return [`(${lines.length - count} lines left out: this tier passed)`, ...lines.slice(-count)].join("\n");
}

/** The tiers the arguments name, in run order; every tier without arguments. */
export function chooseTiers(all: Tier[], names: string[]): Tier[] {
  const unknown = names.filter((name) => !all.some((tier) => tier.name === name));
  if (unknown.length > 0) {
    throw new Error(`No test tier called ${unknown.join(", ")}; the tiers are ${all.map((t) => t.name).join(", ")}.`);
  }
  return names.length === 0 ? all : all.filter((tier) => names.includes(tier.name));
}

/**
 * Runs one command with the terminal as its output, or with its output handed to `hold` when given;
 * resolves with its exit code (1 when a signal ended it).
 */
function runCommand(command: string[], env: NodeJS.ProcessEnv, hold?: (text: string) => void): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), {
      stdio: hold ? ["ignore", "pipe", "pipe"] : "inherit",
      env: { ...process.env, ...env },
    });
    child.stdout?.on("data", (chunk: Buffer) => hold?.(chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => hold?.(chunk.toString()));
    child.on("error", (error) => {
      (hold ?? console.error)(`${error.message}\n`);
      resolve(127);
    });
    child.on("close", (code) => resolve(code ?? 1));
  });
}

type Options = {
  run?: (command: string[], env: NodeJS.ProcessEnv, hold?: (text: string) => void) => Promise<number>;
  log?: (line: string) => void;
  now?: () => number;
};

type Outcome = { tier: Tier; index: number; code: number; command?: string[]; took: number; held?: string };

/** Runs the tiers in order and returns the exit code: 0, or the failing command's code. */
export async function runTiers(chosen: Tier[], options: Options = {}): Promise<number> {
  const { run = runCommand, log = console.log, now = Date.now } = options;
  const header = (tier: Tier, index: number) =>
    `\n━━ Tier ${index + 1}/${chosen.length}: ${tier.name}, ${tier.what} (${tier.commands.map((c) => c.join(" ")).join(" && ")})`;
  const runTier = async (tier: Tier, index: number, hold?: (text: string) => void): Promise<Outcome> => {
    const started = now();
    for (const command of tier.commands) {
      const code = await run(command, tier.env ?? {}, hold);
      if (code === 0) continue;
      const took = now() - started;
      if (tier.onFailure) {
        (hold ?? log)(
          `\n━━ Tier ${tier.name} failed; running ${tier.onFailure.what} (${tier.onFailure.command.join(" ")})\n`,
        );
        await run(tier.onFailure.command, { ...tier.env, ...tier.onFailure.env }, hold);
      }
      return { tier, index, code, command, took };
    }
    return { tier, index, code: 0, took: now() - started };
  };
  const hosted = (tier: Tier) => !!tier.beside && chosen.some((host) => host.name === tier.beside);

  const times: [string, number][] = [];
  const started = now();
  for (const [index, tier] of chosen.entries()) {
    if (hosted(tier)) continue;
    // The tiers beside this one start with it, their output held; each outcome then shows in run order.
    const besides = chosen.flatMap((side, at) => (side.beside === tier.name ? [{ side, at }] : []));
    const running = besides.map(({ side, at }) => {
      let held = "";
      return runTier(side, at, (text) => {
        held += text;
      }).then((outcome) => ({ ...outcome, held }));
    });
    if (besides.length > 0) {
      log(
        `\n━━ Tiers ${besides.map(({ side }) => side.name).join(", ")} run beside ${tier.name}; their output follows it`,
      );
    }
    log(header(tier, index));
    const own = await runTier(tier, index);
    const outcomes = [...(await Promise.all(running)), own].sort((a, b) => a.index - b.index);
    const passedBefore = times.map(([name]) => name).join(", ") || "none";
    const failed = outcomes.find((outcome) => outcome.code !== 0);
    // The tier's own line right under its output, then each tier beside it with its held output; when
    // one of them failed, a tier that passed shows only its last lines, so the failure stays in view at
    // the end of the log, where CI shows it.
    for (const outcome of [own, ...outcomes.filter((o) => o !== own)]) {
      if (outcome !== own) {
        log(header(outcome.tier, outcome.index));
        if (outcome.held) log(failed && outcome.code === 0 ? lastLines(outcome.held) : outcome.held.replace(/\n$/, ""));
      }
      if (outcome.code === 0) log(`━━ Tier ${outcome.tier.name} passed in ${formatDuration(outcome.took)}`);
    }
    for (const outcome of outcomes) if (outcome.code === 0) times.push([outcome.tier.name, outcome.took]);
    if (failed) {
      const beside = outcomes
        .filter((o) => o !== failed)
        .map((o) => `${o.tier.name} ${o.code === 0 ? "passed" : `failed (exited with ${o.code})`}`);
      const notRun = chosen.filter((t) => !outcomes.some((o) => o.tier === t) && !times.some(([n]) => n === t.name));
      log(
        `\n━━ FAILED: tier ${failed.tier.name} (${failed.command!.join(" ")} exited with ${failed.code}) after ${formatDuration(failed.took)}.` +
          ` Passed before it: ${passedBefore}.${beside.length ? ` Run beside it: ${beside.join(", ")}.` : ""}` +
          `${notRun.length ? ` Not run: ${notRun.map((t) => t.name).join(", ")}.` : ""}`,
      );
      return failed.code;
    }
  }
  const width = Math.max(...times.map(([name]) => name.length), "total".length);
  log(`\n━━ Every tier passed`);
  for (const [name, ms] of times) log(`   ${name.padEnd(width)}  ${formatDuration(ms)}`);
  log(`   ${"total".padEnd(width)}  ${formatDuration(now() - started)}`);
  return 0;
}

if (import.meta.main) {
  let chosen: Tier[];
  try {
    chosen = chooseTiers(tiers, process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  process.exitCode = await runTiers(chosen);
}
