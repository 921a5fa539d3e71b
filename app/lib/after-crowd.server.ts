import v8 from "node:v8";
import { loadMeter, requestsUnderWay } from "~/lib/idle.server";

/**
 * V8's heap given back once a worker falls quiet after a crowd (ADR 140).
 *
 * A crowd grows each worker's heap (its young generation and old space fill
 * with renders' garbage) and V8 keeps the grown heap long after: ten seconds
 * after the overload benchmark's burst the workers' heaps had grown by 60-130 MB
 * (250 MB used of 520 committed), and an ordinary full collection freed what was
 * used but kept the space. A last-resort collection shrinks the heap to what
 * is live (405 MB committed before the burst, 144 MB after it). It holds the
 * worker for 0.3-0.7 s, so it runs only when nobody is waiting: after the
 * render gate refused someone (a crowd past what the worker can serve, ADR
 * 141), then QUIET_LOOKS looks in a row found it quiet, and only when the heap
 * has grown by GROWTH_BYTES from the smallest it has been since it last ran.
 * Each look measures the load over its whole span. A crowd used to be a look at
 * half load: ordinary traffic at 70% of capacity was a crowd then, and a worker
 * the soak's connections left a tenth loaded collected every minute or two, its
 * heap then growing back (the soak's loop stalled 0.4-1.4 s most minutes).
 */

/** How often the worker is looked at (ms); each look measures the load since the one before. */
export const LOOK_EVERY_MS = 500;
/** A look with at most this load, and no request under way at its end, is quiet. */
export const QUIET_LOAD = 0.1;
/** Quiet looks in a row after a crowd before collecting (1.5 s): a lull inside a crowd is not its end. */
export const QUIET_LOOKS = 3;
/** The heap must have grown by this much since the last collection: a small crowd's garbage is V8's own business. */
export const GROWTH_BYTES = 64 * 1024 * 1024;

/** The collection that gives memory back: every round V8 would make before giving up, shrinking the heap. */
const lastResort = (gc: NodeJS.GCFunction) => gc({ type: "major", execution: "sync", flavor: "last-resort" });

export type AfterCrowd = { stop(): void; readonly collections: number };

export function collectAfterCrowds({
  refused,
  gc = globalThis.gc,
  load = loadMeter(),
  underWay = requestsUnderWay,
  heapBytes = () => v8.getHeapStatistics().total_heap_size,
  onCollected,
}: {
  /** Requests the render gate has refused so far: any new refusal means a crowd. */
  refused: () => number;
  /** V8's collector: there only when the process was started with --expose-gc (the cluster's workers are). */
  gc?: NodeJS.GCFunction;
  /** The load since the last call (`loadMeter`). */
  load?: () => number;
  underWay?: () => number;
  heapBytes?: () => number;
  onCollected?: (took: { ms: number; heapBefore: number; heapAfter: number }) => void;
}): AfterCrowd {
  let crowded = false;
  let quietLooks = 0;
  /** The smallest the heap has been since the last collection: growth is counted from it. */
  let floor = heapBytes();
  let collections = 0;
  let refusedBefore = refused();
  const look = () => {
    const share = load();
    const heap = heapBytes();
    floor = Math.min(floor, heap);
    const refusedNow = refused();
    if (refusedNow > refusedBefore) {
      refusedBefore = refusedNow;
      crowded = true;
      quietLooks = 0;
      return;
    }
    quietLooks = share <= QUIET_LOAD && underWay() === 0 ? quietLooks + 1 : 0;
    if (!crowded || !gc || quietLooks < QUIET_LOOKS) return;
    crowded = false;
    if (heap - floor < GROWTH_BYTES) return;
    const started = performance.now();
    lastResort(gc);
    floor = heapBytes();
    collections += 1;
    onCollected?.({ ms: performance.now() - started, heapBefore: heap, heapAfter: floor });
  };
  const timer = setInterval(look, LOOK_EVERY_MS);
  timer.unref();
  return {
    stop: () => clearInterval(timer),
    get collections() {
      return collections;
    },
  };
}
