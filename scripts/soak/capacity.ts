/**
 * What the soak calls the server's capacity for its mix (ADR 103): the most
 * actions a second it answered, closed loop, at a number of connections where
 * the p99 of pages (what visitors wait for; an owner's post with a photo takes
 * a second of its own) stayed within the render budget and nothing failed. The
 * throughput past saturation is no capacity: 32 connections gave 155
 * actions/s at p99 1.6 s, and 70% of that was already a crowd the render gate
 * refuses, so the soak failed on 503s it had caused.
 */

/** Connections tried in turn, each for CAPACITY_STEP_SECONDS, until the p99 passes the target. */
export const CAPACITY_CONNECTIONS = [4, 8, 16, 32] as const;
export const CAPACITY_STEP_SECONDS = 15;
/** The render gate's budget (server/render-gate.ts): past it, pages are refused in a crowd. */
export const CAPACITY_P99_MS = 1_000;

/** The kinds of action whose answers are pages a visitor waits for. */
export const PAGE_KINDS: ReadonlySet<string> = new Set(["hot", "cold", "view"]);

/** One step: `p99Ms` is the pages' p99, `errors` counts every kind. */
export type CapacityStep = { connections: number; actionsPerSecond: number; p99Ms: number; errors: number };

/** Whether a step is within the target: answered in time, nothing failed. */
export const withinTarget = (step: CapacityStep) => step.p99Ms <= CAPACITY_P99_MS && step.errors === 0;

/**
 * The capacity: the best throughput of the steps within the target, or the
 * first step's when none was (a machine so slow that even a few connections
 * wait: the soak then runs at 70% of that, and says so).
 */
export function capacityOf(steps: readonly CapacityStep[]): { actionsPerSecond: number; step: CapacityStep } {
  if (steps.length === 0) throw new Error("no capacity step was measured");
  const within = steps.filter(withinTarget);
  const step = (within.length > 0 ? within : steps.slice(0, 1)).reduce((best, s) =>
    s.actionsPerSecond > best.actionsPerSecond ? s : best,
  );
  return { actionsPerSecond: step.actionsPerSecond, step };
}
