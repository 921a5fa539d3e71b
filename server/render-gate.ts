/**
 * Who renders next, and who is told to come back later (ADR 093, built on the
 * turns of ADR 031).
 *
 * Renders take turns, first come first served, one starting per turn of the
 * event loop: libuv accepts at most one new connection per turn, and a render
 * runs its synchronous part (SQLite, React) to its end inside the turn that
 * starts it, so starting one per turn keeps the loop getting back to its
 * sockets, and a visitor on a new connection never waits a turn per request
 * ahead of them.
 *
 * At most `slots` renders are under way at once (a render on PostgreSQL waits
 * for its queries, and another may run meanwhile; unbounded, hundreds of
 * half-done renders held their memory at once). The others wait in two lanes:
 * signed-in people's requests (their pages are theirs alone and their writes
 * must not wait behind a crowd) go before the public one.
 *
 * A request that would wait longer than `budgetMs` for its render is refused at
 * once (the caller answers 503 with Retry-After): the wait is the number ahead
 * of it times how long, lately, the queue took per render. One network may use
 * the whole queue while nobody else needs it, but not keep others out: when the
 * queue is full, a request from a network with fewer waiting takes the place of
 * the newest request of the network with the most (refused in its stead), so a
 * single bot or crawler cannot fill the queue for everyone else. Refusals start
 * only once the oldest request waiting has waited half the budget: a queue that
 * moves is not refused on a prediction alone. A request that waited past the
 * budget all the same (the estimate was wrong) is refused when its turn comes
 * rather than rendered late (ADR 101), once half as many wait as refusing on
 * arrival needs (ADR 139), and only in a crowd that was turned away at the door
 * in the last few seconds (ADR 141): a worker that stalled for a second at
 * ordinary traffic answers its queue late, not with 503s.
 */

export type Lane = "priority" | "public";

export type Refusal = { ok: false; reason: "busy" | "network" | "late"; retryAfterSeconds: number };
export type Admission = { ok: true; release: () => void } | Refusal;

export type RenderGateOptions = {
  /** Renders under way at once. */
  slots: number;
  /** The longest a request may expect to wait for its render. */
  budgetMs: number;
  /**
   * Refusals start only once the oldest request waiting has waited this long: a queue that moves
   * is not refused on a prediction alone (a server just started renders slowly for a few seconds,
   * and its first estimates say so). Default half the budget.
   */
  slowQueueMs?: number;
  /**
   * Nobody is refused while fewer than this many wait ahead: a few dozen connections of renders
   * are ordinary traffic that a slow or just-started machine takes some seconds to serve, not a crowd.
   */
  minQueue?: number;
  /** The time a render takes off the queue before any was measured. */
  initialIntervalMs?: number;
  now?: () => number;
};

type Waiter = {
  lane: Lane;
  network: string;
  since: number;
  /** Refused while waiting, to make room for another network: skipped when its turn comes. */
  gone: boolean;
  resolve: (admission: Admission) => void;
};

/**
 * A request that waited this many budgets all the same is refused when its turn comes (ADR 101):
 * with the hold of a refused connection before it (server/busy.ts) and the render after it, an
 * answer then still comes within 2 s.
 */
const LATE = 1;

/**
 * Late refusal needs a crowd this many times smaller than refusal on arrival (`minQueue`, ADR 139):
 * still more than the 25 a worker has waiting under the benchmark's 50 connections.
 */
const LATE_CROWD_SHARE = 2;

/**
 * Late refusal only while the gate has turned someone away on arrival within this many budgets
 * (ADR 141): a crowd, not a stall. At 70% of capacity a worker held up a second or two (a slow
 * write, a starved core) gathers 30-45 waiting and nobody is refused on arrival; those requests are
 * answered a second late rather than with 503s.
 */
const TURNED_AWAY_WITHIN = 5;

/** How much a new measurement moves the estimate: about the last ten renders count. */
const SMOOTHING = 0.1;

/**
 * The requests each network has waiting, newest last, and which networks have the most: a
 * full queue asks for the biggest many times a second, so it is known without a search.
 */
function createNetworkCounts() {
  const waiters = new Map<string, Waiter[]>();
  const bySize = new Map<number, Set<string>>();
  let most = 0;

  function move(network: string, from: number, to: number) {
    if (from > 0) {
      const set = bySize.get(from);
      set?.delete(network);
      if (set?.size === 0) bySize.delete(from);
    }
    if (to > 0) {
      const set = bySize.get(to) ?? new Set<string>();
      set.add(network);
      bySize.set(to, set);
    }
    if (to > most) most = to;
    while (most > 0 && !bySize.has(most)) most -= 1;
  }

  return {
    size: (network: string) => waiters.get(network)?.length ?? 0,
    add(waiter: Waiter) {
      const list = waiters.get(waiter.network) ?? [];
      list.push(waiter);
      waiters.set(waiter.network, list);
      move(waiter.network, list.length - 1, list.length);
    },
    remove(waiter: Waiter) {
      const list = waiters.get(waiter.network);
      const at = list?.indexOf(waiter) ?? -1;
      if (!list || at === -1) return;
      list.splice(at, 1);
      if (list.length === 0) waiters.delete(waiter.network);
      move(waiter.network, list.length + 1, list.length);
    },
    /** The newest waiter of a network with the most waiting, if it has more than `than`. */
    newestOfBiggest(than: number): Waiter | undefined {
      if (most <= than) return undefined;
      const network = bySize.get(most)?.values().next().value;
      return network === undefined ? undefined : waiters.get(network)?.at(-1);
    },
  };
}

export function createRenderGate({
  slots,
  budgetMs,
  slowQueueMs = budgetMs / 2,
  minQueue = 64,
  initialIntervalMs = 20,
  now = () => performance.now(),
}: RenderGateOptions) {
  const lanes: Record<Lane, Waiter[]> = { priority: [], public: [] };
  const queued: Record<Lane, number> = { priority: 0, public: 0 };
  const networks: Record<Lane, ReturnType<typeof createNetworkCounts>> = {
    priority: createNetworkCounts(),
    public: createNetworkCounts(),
  };
  /** A request that waited past the budget is refused at its turn once this many wait (ADR 139). */
  const lateQueue = Math.ceil(minQueue / LATE_CROWD_SHARE);
  let running = 0;
  let scheduled = false;
  /** Requests refused for any reason, and when one was last refused on arrival. */
  let refused = 0;
  let turnedAwayAt = Number.NEGATIVE_INFINITY;
  /** How long the queue took per render lately, measured between renders ending while others waited. */
  let intervalMs = initialIntervalMs;
  let lastEnd = 0;

  const waiting = () => queued.priority + queued.public;
  const retryAfterSeconds = () => Math.min(30, Math.max(2, Math.ceil(((waiting() + 1) * intervalMs) / 1000) + 1));
  const refusal = (reason: Refusal["reason"]): Refusal => {
    refused += 1;
    if (reason !== "late") turnedAwayAt = now();
    return { ok: false, reason, retryAfterSeconds: retryAfterSeconds() };
  };
  /** A crowd the gate had to turn away at the door lately, not a queue that grew while a worker stalled. */
  const turningAway = () => now() - turnedAwayAt <= TURNED_AWAY_WITHIN * budgetMs;

  /** Requests waiting ahead of a new one in this lane: signed-in people wait only behind each other. */
  const aheadOf = (lane: Lane) => (lane === "priority" ? queued.priority : waiting());

  function expectedWaitMs(lane: Lane): number {
    const ahead = aheadOf(lane);
    const full = running >= slots ? 1 : 0;
    return (ahead + full) * intervalMs;
  }

  /** How long the oldest request still waiting in the lanes this one waits behind has waited. */
  function oldestWaitMs(lane: Lane): number {
    let oldest = Number.POSITIVE_INFINITY;
    for (const name of lane === "priority" ? (["priority"] as const) : (["priority", "public"] as const)) {
      const first = lanes[name].find((waiter) => !waiter.gone);
      if (first && first.since < oldest) oldest = first.since;
    }
    return oldest === Number.POSITIVE_INFINITY ? 0 : now() - oldest;
  }

  /** Full: a crowd waits ahead, the wait predicted is over the budget, and the queue is seen to be slow. */
  function isFull(lane: Lane): boolean {
    return aheadOf(lane) >= minQueue && expectedWaitMs(lane) > budgetMs && oldestWaitMs(lane) >= slowQueueMs;
  }

  /** Takes a waiter out of its lane's count (it stays in the lane's array, skipped, until its turn). */
  function leave(waiter: Waiter) {
    queued[waiter.lane] -= 1;
    networks[waiter.lane].remove(waiter);
  }

  function start(waiter: Waiter) {
    running += 1;
    let released = false;
    waiter.resolve({
      ok: true,
      release() {
        if (released) return;
        released = true;
        running -= 1;
        const ended = now();
        // Only while others wait does the gap between two ends say how fast the queue moves.
        if (waiting() > 0 && lastEnd > 0) intervalMs += SMOOTHING * (Math.min(ended - lastEnd, budgetMs) - intervalMs);
        lastEnd = ended;
        schedule();
      },
    });
  }

  function nextWaiter(): Waiter | undefined {
    for (const lane of ["priority", "public"] as const) {
      const list = lanes[lane];
      while (list.length > 0) {
        const waiter = list.shift() as Waiter;
        if (!waiter.gone) return waiter;
      }
    }
    return undefined;
  }

  function runOne() {
    scheduled = false;
    if (running >= slots) return;
    const waiter = nextWaiter();
    if (!waiter) return;
    leave(waiter);
    // Late only in a crowd: at ordinary traffic a slow render is waited for. A smaller crowd than
    // refusing on arrival needs (ADR 139): at PostgreSQL's 50 renders a second per worker, minQueue
    // waiting is over a second of wait, and requests rendered after 1-2.3 s in the queue made the
    // p99 of answers pass 2 s. And only while the crowd is being turned away at the door (ADR 141).
    if (waiting() >= lateQueue && now() - waiter.since > LATE * budgetMs && turningAway())
      waiter.resolve(refusal("late"));
    else start(waiter);
    // A turn scheduled from inside setImmediate runs in the next turn of the loop,
    // after that turn has read its sockets and accepted a connection.
    schedule();
  }

  function schedule() {
    if (scheduled || running >= slots || waiting() === 0) return;
    scheduled = true;
    setImmediate(runOne);
  }

  return {
    /** Resolves when this request may render (always in a later turn of the loop), or with why it may not. */
    enter(client: string, lane: Lane): Promise<Admission> {
      // Each lane counts its own: a signed-in owner on a campus network the crowd fills still gets in.
      const network = `${lane} ${client}`;
      if (isFull(lane)) {
        // Full. Room is made only for a network with fewer waiting than the biggest would have left.
        const hog = networks[lane].newestOfBiggest(networks[lane].size(network) + 1);
        if (!hog) return Promise.resolve(refusal("busy"));
        hog.gone = true;
        leave(hog);
        hog.resolve(refusal("network"));
      }
      return new Promise<Admission>((resolve) => {
        const waiter: Waiter = { lane, network, since: now(), gone: false, resolve };
        lanes[lane].push(waiter);
        queued[lane] += 1;
        networks[lane].add(waiter);
        schedule();
      });
    },
    /** Requests waiting for a render (for /metrics and tests). */
    get waiting() {
      return waiting();
    },
    /** Requests refused so far, for any reason: a worker that refused none has had no crowd (ADR 141). */
    get refused() {
      return refused;
    },
    /** Renders under way. */
    get running() {
      return running;
    },
    /** The current estimate of the time the queue takes per render, in ms. */
    get intervalMs() {
      return intervalMs;
    },
  };
}

export type RenderGate = ReturnType<typeof createRenderGate>;
