import v8 from "node:v8";
import { workerIsBusy, workerIsIdle } from "~/lib/idle.server";

/**
 * V8's heap given back once a worker falls quiet after a crowd (ADR 140).
 *
 * A crowd grows each worker's heap (its young generation and old space fill
 * with renders' garbage) and V8 keeps the grown heap long after: ten seconds
 * after the overload benchmark's burst the workers' heaps had grown by 60-130 MB
 * (250 MB used of 520 committed), and an ordinary full collection freed what was
 * used but kept the space. A last-resort collection shrinks the heap to what
 * is live (405 MB committed before the burst, 144 MB after it). It holds the
 * worker for 0.3-0.4 s, so it runs only when nobody is waiting: after the
 * worker has been busy, then idle for QUIET_MS, and only when the heap has
 * grown by GROWTH_BYTES from the smallest it has been since it last ran.
 */

/** How often the worker is looked at (ms). */
export const LOOK_EVERY_MS = 500;
/** Idle for this long after a crowd before collecting (ms): a lull inside a crowd is not its end. */
export const QUIET_MS = 1_500;
/** The heap must have grown by this much since the last collection: a small crowd's garbage is V8's own business. */
export const GROWTH_BYTES = 64 * 1024 * 1024;

/** The collection that gives memory back: every round V8 would make before giving up, shrinking the heap. */
const lastResort = (gc: NodeJS.GCFunction) => gc({ type: "major", execution: "sync", flavor: "last-resort" });

export type AfterCrowd = { stop(): void; readonly collections: number };

export function collectAfterCrowds({
  gc = globalThis.gc,
  isBusy = workerIsBusy,
  isIdle = workerIsIdle,
  heapBytes = () => v8.getHeapStatistics().total_heap_size,
  now = () => performance.now(),
  onCollected,
}: {
  /** V8's collector: there only when the process was started with --expose-gc (the cluster's workers are). */
  gc?: NodeJS.GCFunction;
  isBusy?: () => boolean;
  isIdle?: () => boolean;
  heapBytes?: () => number;
  now?: () => number;
  onCollected?: (took: { ms: number; heapBefore: number; heapAfter: number }) => void;
} = {}): AfterCrowd {
  let crowded = false;
  let idleSince: number | null = null;
  /** The smallest the heap has been since the last collection: growth is counted from it. */
  let floor = heapBytes();
  let collections = 0;
  const look = () => {
    const at = now();
    const heap = heapBytes();
    floor = Math.min(floor, heap);
    if (isBusy()) {
      crowded = true;
      idleSince = null;
      return;
    }
    if (!isIdle()) {
      idleSince = null;
      return;
    }
    idleSince ??= at;
    if (!crowded || !gc || at - idleSince < QUIET_MS) return;
    crowded = false;
    if (heap - floor < GROWTH_BYTES) return;
    lastResort(gc);
    floor = heapBytes();
    collections += 1;
    onCollected?.({ ms: now() - at, heapBefore: heap, heapAfter: floor });
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
