import { type EventLoopUtilization, performance } from "node:perf_hooks";

/**
 * Whether this worker has time for background work (ADR 095): compressing
 * cached pages smaller, timed jobs. Visitors come first. The worker is idle
 * when no request is under way in Express (a render, an action: marked by
 * server/app.ts) and, over the last window, its event loop spent at most
 * IDLE_LOAD of the time on anything but background work. A cache hit is
 * answered within one turn and never "under way", so a stream of hits shows
 * only in the loop's load: at saturation the loop is never idle.
 */

/** How long a window of event-loop load is (ms). */
export const LOAD_WINDOW_MS = 100;
/** At most this share of the last window spent on requests (and anything else not background). */
export const IDLE_LOAD = 0.25;

let inFlight = 0;
/** Milliseconds spent in background tasks so far: not counted as load (they stop when it rises). */
let backgroundMs = 0;
let loadWindow = { at: performance.now(), elu: performance.eventLoopUtilization(), backgroundMs: 0 };
let load = 1;

/** A request entered Express (server/app.ts); markRequestEnd when it is answered or its connection closed. */
export function markRequestStart(): void {
  inFlight += 1;
}

export function markRequestEnd(): void {
  inFlight = Math.max(0, inFlight - 1);
}

/** The share of the time since `from` (`elapsed` ms) the event loop spent on anything but background work. */
function loadSince(
  from: { elu: EventLoopUtilization; backgroundMs: number },
  elu: EventLoopUtilization,
  elapsed: number,
): number {
  const active = performance.eventLoopUtilization(elu, from.elu).active;
  return Math.max(0, active - (backgroundMs - from.backgroundMs)) / elapsed;
}

/** The share of the last window the event loop spent on anything but background work (0 to 1). */
function recentLoad(now: number): number {
  const elapsed = now - loadWindow.at;
  if (elapsed < LOAD_WINDOW_MS) return load;
  const elu = performance.eventLoopUtilization();
  if (elapsed > 2 * LOAD_WINDOW_MS) {
    // Nobody asked for a while: a long quiet stretch would hide a burst that has just begun.
    // Start a fresh window, and count as busy until it is full.
    load = 1;
  } else {
    load = loadSince(loadWindow, elu, elapsed);
  }
  loadWindow = { at: now, elu, backgroundMs };
  return load;
}

/** Whether background work may run now: nothing in flight and a quiet event loop. */
export function workerIsIdle(now = performance.now()): boolean {
  return inFlight === 0 && recentLoad(now) <= IDLE_LOAD;
}

/**
 * Above this share of the time spent on requests, the worker is busy with visitors: a page's new view
 * count waits to be rendered (ADR 113). Higher than IDLE_LOAD: refreshing a count is one render, worth
 * doing whenever the worker is not near saturation.
 */
export const BUSY_LOAD = 0.5;

/**
 * At more requests a second than this, visitors keep the worker busy whatever its load: workers
 * that share their cores with each other (and a load generator) spend much of a crowd waiting for
 * a core, which the event loop's load does not show (under half of it, measured, at saturation).
 */
export const BUSY_REQUESTS_PER_SECOND = 500;

/** Requests this worker has been asked (markRequest). */
let requests = 0;
/** Its own window: `recentLoad` restarts after a quiet stretch, which would count a quiet worker as busy here. */
let busyWindow = { at: performance.now(), elu: performance.eventLoopUtilization(), backgroundMs: 0, requests: 0 };
let busyNow = false;

/** A request came in (server/app.ts, every one: cache hits and static files too). */
export function markRequest(): void {
  requests += 1;
}

/**
 * Whether visitors keep this worker busy now: a request under way in Express, or, since the last look
 * (a window at least LOAD_WINDOW_MS long), more than BUSY_LOAD of the time spent on anything but
 * background work or more than BUSY_REQUESTS_PER_SECOND requests. A worker asked after a quiet stretch is not.
 */
export function workerIsBusy(now = performance.now()): boolean {
  if (inFlight > 0) return true;
  const elapsed = now - busyWindow.at;
  if (elapsed >= LOAD_WINDOW_MS) {
    const elu = performance.eventLoopUtilization();
    const load = loadSince(busyWindow, elu, elapsed);
    const perSecond = ((requests - busyWindow.requests) * 1000) / elapsed;
    busyNow = load > BUSY_LOAD || perSecond > BUSY_REQUESTS_PER_SECOND;
    busyWindow = { at: now, elu, backgroundMs, requests };
  }
  return busyNow;
}

/** Requests under way in Express now (marked by server/app.ts). */
export function requestsUnderWay(): number {
  return inFlight;
}

/**
 * A meter of this worker's load: each reading is the share of the time since the one before spent on
 * anything but background work (0 to 1), over the whole span, not only its last window.
 */
export function loadMeter(): () => number {
  let from = { at: performance.now(), elu: performance.eventLoopUtilization(), backgroundMs };
  return () => {
    const at = performance.now();
    const elu = performance.eventLoopUtilization();
    const load = loadSince(from, elu, Math.max(1, at - from.at));
    from = { at, elu, backgroundMs };
    return Math.min(1, load);
  };
}

/** Runs `task` as background work: its time does not count as load. */
export function runAsBackground<T>(task: () => T): T {
  const started = performance.now();
  try {
    return task();
  } finally {
    backgroundMs += performance.now() - started;
  }
}

export type IdleQueue<T> = {
  /** Queues an item; false when the queue is full (the caller may offer it again later). */
  offer(item: T): boolean;
  /** Items waiting, the one under way included. */
  readonly waiting: number;
  /** Settles when nothing waits. */
  settled(): Promise<void>;
};

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/**
 * Resolves once the worker has been idle for `quietMs` (every look in that
 * span found it idle; 0: one look), asking every `retryMs`, or after
 * `maxWaitMs` in any case (work that must happen some time: a timed job).
 * Resolves with whether it found the worker idle.
 */
export async function untilIdle({
  maxWaitMs = Number.POSITIVE_INFINITY,
  quietMs = 0,
  retryMs = LOAD_WINDOW_MS,
  isIdle = workerIsIdle,
}: {
  maxWaitMs?: number;
  quietMs?: number;
  retryMs?: number;
  isIdle?: () => boolean;
} = {}): Promise<boolean> {
  const deadline = performance.now() + maxWaitMs;
  let idleSince: number | null = null;
  for (;;) {
    const now = performance.now();
    if (!isIdle()) idleSince = null;
    else {
      idleSince ??= now;
      if (now - idleSince >= quietMs) return true;
    }
    if (now >= deadline) return false;
    await sleep(Math.min(retryMs, Math.max(0, deadline - now)));
  }
}

/**
 * Background work in small synchronous pieces, one per turn of the event
 * loop and only while `isIdle()` says so; otherwise it waits and asks again
 * every `retryMs`. At most `cap` items wait: past that, offer() refuses
 * rather than let a burst queue work without bound.
 */
export function createIdleQueue<T>({
  cap,
  run,
  isIdle = workerIsIdle,
  retryMs = LOAD_WINDOW_MS,
}: {
  cap: number;
  run: (item: T) => void;
  isIdle?: () => boolean;
  retryMs?: number;
}): IdleQueue<T> {
  let items: T[] = [];
  /** The next item to run (an index: shifting a long array is slow). */
  let head = 0;
  let draining: Promise<void> | null = null;

  async function drain(): Promise<void> {
    while (head < items.length) {
      // The answers waiting in this turn go first; then only an idle worker goes on.
      await nextTurn();
      await untilIdle({ isIdle, retryMs });
      const item = items[head] as T;
      // Let go of it: the queue keeps nothing alive once done.
      items[head++] = undefined as T;
      runAsBackground(() => run(item));
    }
    items = [];
    head = 0;
  }

  return {
    offer(item) {
      if (items.length - head >= cap) return false;
      items.push(item);
      draining ??= drain().finally(() => {
        draining = null;
      });
      return true;
    },
    get waiting() {
      return items.length - head;
    },
    settled() {
      return draining ?? Promise.resolve();
    },
  };
}
