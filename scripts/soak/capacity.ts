/**
 * What the soak calls the server's capacity for its mix (ADRs 103, 116 and 132):
 * the highest rate of actions, sent open loop as visitors arrive, at which the
 * p99 of pages (what visitors wait for; an owner's post with a photo takes a
 * second of its own) stayed within the page budget and nothing failed, first
 * in a short step of a ramp and then held for a minute.
 * The throughput of a closed loop past saturation is no capacity: 32
 * connections gave 155 actions/s at p99 1.6 s, and 70% of that was already a
 * crowd the render gate refuses, so the soak failed on 503s it had caused.
 */

/** The first rate tried (actions/s); each next step is CAPACITY_GROWTH times the last. */
export const CAPACITY_FIRST_RATE = 20;
export const CAPACITY_GROWTH = 1.25;
export const CAPACITY_MAX_RATE = 2_000;
export const CAPACITY_STEP_SECONDS = 15;
/**
 * How long a rate the ramp passed is then held before it counts as capacity (ADR 132): 15 seconds
 * passed 186/s on a machine where 30 minutes at 130/s had pages' p99 over 400 ms in a third of them.
 */
export const CAPACITY_HOLD_SECONDS = 60;
/**
 * A page's p99 budget (docs/performance.md, "Budgets"). Not the render gate's 1 s (ADR 103): a step at
 * p99 750 ms is a queue already growing, and 70% of it made a slower machine refuse pages (ADR 116).
 */
export const CAPACITY_P99_MS = 250;

/** The kinds of action whose answers are pages a visitor waits for. */
export const PAGE_KINDS: ReadonlySet<string> = new Set(["hot", "cold", "view"]);

/**
 * One step: `seconds` it lasted (a ramp's step or a hold), `p99Ms` the pages' p99; `errors` counts every
 * kind, and actions not sent in time.
 */
export type CapacityStep = { rate: number; seconds: number; p99Ms: number; errors: number };

/** The rates tried in turn, until one is not within the target. */
export function capacityRates(): number[] {
  const rates: number[] = [];
  for (let rate = CAPACITY_FIRST_RATE; rate <= CAPACITY_MAX_RATE; rate = Math.round(rate * CAPACITY_GROWTH))
    rates.push(rate);
  return rates;
}

/** Whether a step is within the target: pages answered in time, nothing failed. */
export const withinTarget = (step: CapacityStep) => step.p99Ms <= CAPACITY_P99_MS && step.errors === 0;

/** The rates to hold, highest first: each the ramp passed (once, however often it was tried), until one is held within the target. */
export function holdRates(ramp: readonly CapacityStep[]): number[] {
  return [...new Set(ramp.filter(withinTarget).map((s) => s.rate))].sort((a, b) => b - a);
}

/**
 * The capacity: the highest rate held within the target (`holds`, from holdRates in turn), or the
 * ramp's first rate when none was (a machine so slow that even the first rate waits: the soak then
 * runs at 70% of that, and says so).
 */
export function capacityOf(
  ramp: readonly CapacityStep[],
  holds: readonly CapacityStep[],
): { rate: number; within: boolean } {
  if (ramp.length === 0) throw new Error("no capacity step was measured");
  const held = holds.filter(withinTarget);
  if (held.length === 0) return { rate: ramp[0].rate, within: false };
  return { rate: Math.max(...held.map((s) => s.rate)), within: true };
}

/** Measures one step: `rate` actions a second for `seconds`. */
export type MeasureStep = (rate: number, seconds: number) => Promise<CapacityStep>;

/**
 * The ramp: each rate of capacityRates for CAPACITY_STEP_SECONDS until one is not within the target.
 * A step that fails is measured once more before the ramp ends there (ADR 136): one transient (a job
 * starting, a checkpoint, the first requests' compilation) in the first step made the whole ramp's
 * capacity its first rate. Every step measured is returned, the failed tries too.
 */
export async function rampUp(measure: MeasureStep): Promise<CapacityStep[]> {
  const steps: CapacityStep[] = [];
  for (const rate of capacityRates()) {
    let step = await measure(rate, CAPACITY_STEP_SECONDS);
    steps.push(step);
    if (!withinTarget(step)) {
      step = await measure(rate, CAPACITY_STEP_SECONDS);
      steps.push(step);
    }
    if (!withinTarget(step)) break;
  }
  return steps;
}

/** The holds: each of holdRates(ramp) for CAPACITY_HOLD_SECONDS, highest first, until one is within the target. */
export async function holdUntilWithin(ramp: readonly CapacityStep[], measure: MeasureStep): Promise<CapacityStep[]> {
  const holds: CapacityStep[] = [];
  for (const rate of holdRates(ramp)) {
    const held = await measure(rate, CAPACITY_HOLD_SECONDS);
    holds.push(held);
    if (withinTarget(held)) break;
  }
  return holds;
}
