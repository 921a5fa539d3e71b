/**
 * `npm test`: every test tier in order (ADR 073), each under a header of its own and followed by the
 * time it took; the first tier that fails stops the run with one line naming it. `npm test -- system
 * bench` runs only the tiers named, still in this order.
 */
import { spawn } from "node:child_process";

export type Tier = { name: string; what: string; commands: string[][]; env?: NodeJS.ProcessEnv };

/** Fewer kill -9 rounds than crash.spec.ts's twenty when nobody sets CRASH_ROUNDS: ADR 073 says why. */
export const CRASH_ROUNDS_IN_NPM_TEST = "8";

export const tiers: Tier[] = [
  {
    name: "static",
    what: "type check and lint",
    commands: [
      ["npm", "run", "typecheck"],
      ["npm", "run", "lint"],
    ],
  },
  { name: "unit", what: "unit and integration tests (Vitest)", commands: [["npm", "run", "test:unit"]] },
  { name: "build", what: "production build", commands: [["npm", "run", "build"]] },
  { name: "browser", what: "browser tests (Playwright, tests/e2e)", commands: [["npm", "run", "test:e2e"]] },
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

/** The tiers the arguments name, in run order; every tier without arguments. */
export function chooseTiers(all: Tier[], names: string[]): Tier[] {
  const unknown = names.filter((name) => !all.some((tier) => tier.name === name));
  if (unknown.length > 0) {
    throw new Error(`No test tier called ${unknown.join(", ")}; the tiers are ${all.map((t) => t.name).join(", ")}.`);
  }
  return names.length === 0 ? all : all.filter((tier) => names.includes(tier.name));
}

/** Runs one command with the terminal as its output; resolves with its exit code (1 when a signal ended it). */
function runCommand(command: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { stdio: "inherit", env: { ...process.env, ...env } });
    child.on("error", (error) => {
      console.error(error.message);
      resolve(127);
    });
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

type Options = {
  run?: (command: string[], env: NodeJS.ProcessEnv) => Promise<number>;
  log?: (line: string) => void;
  now?: () => number;
};

/** Runs the tiers in order and returns the exit code: 0, or the failing command's code. */
export async function runTiers(chosen: Tier[], options: Options = {}): Promise<number> {
  const { run = runCommand, log = console.log, now = Date.now } = options;
  const times: [string, number][] = [];
  const started = now();
  for (const [index, tier] of chosen.entries()) {
    const shown = tier.commands.map((c) => c.join(" ")).join(" && ");
    log(`\n━━ Tier ${index + 1}/${chosen.length}: ${tier.name}, ${tier.what} (${shown})`);
    const tierStarted = now();
    for (const command of tier.commands) {
      const code = await run(command, tier.env ?? {});
      if (code !== 0) {
        const passed = times.map(([name]) => name).join(", ") || "none";
        const notRun = chosen.slice(index + 1).map((t) => t.name);
        log(
          `\n━━ FAILED: tier ${tier.name} (${command.join(" ")} exited with ${code}) after ${formatDuration(now() - tierStarted)}.` +
            ` Passed before it: ${passed}.${notRun.length ? ` Not run: ${notRun.join(", ")}.` : ""}`,
        );
        return code;
      }
    }
    const took = now() - tierStarted;
    times.push([tier.name, took]);
    log(`━━ Tier ${tier.name} passed in ${formatDuration(took)}`);
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
