import type { Logger } from "pino";
import type { DB } from "~/db/db.server";
import { type ListingView, recordListingViews } from "./listing.server";

/**
 * Page views are buffered in memory and written in one transaction a second
 * (issue 8: no write per request, so a cached listing page can be served while
 * its view is counted). stop() writes what is left: nothing acknowledged is
 * lost on a clean shutdown (server.ts calls it on SIGTERM).
 */
export type ViewCounter = {
  /** Whether this browser session's view of the listing was queued recently (a reload). */
  seen(listingId: number, sessionKey: string): boolean;
  add(view: ListingView): void;
  /**
   * A view still being decided (its limit asked over IPC or Redis): stop() waits
   * for it before the last flush, so a view answered just before SIGTERM is kept.
   */
  track(deciding: Promise<void>): void;
  flush(): Promise<void>;
  stop(): Promise<void>;
};

/** Recently queued (listing, session) pairs remembered to skip reloads without a database read. */
const RECENT_LIMIT = 50_000;
/** Views kept while the database cannot be written; past this the oldest are given up (and logged). */
const PENDING_LIMIT = 200_000;

export function startViewCounter({
  db,
  log,
  intervalMs = 1_000,
}: {
  db: DB;
  log: Logger;
  intervalMs?: number;
}): ViewCounter {
  let pending: ListingView[] = [];
  const recent = new Set<string>();
  let running: Promise<void> = Promise.resolve();
  const deciding = new Set<Promise<void>>();

  function flush(): Promise<void> {
    running = running.then(async () => {
      if (pending.length === 0) return;
      const batch = pending;
      pending = [];
      try {
        await recordListingViews(db, batch);
      } catch (error) {
        // Kept for the next flush: a database that is down for a moment loses no view.
        pending = batch.concat(pending);
        const dropped = pending.length - PENDING_LIMIT;
        if (dropped > 0) pending = pending.slice(dropped);
        log.error({ err: error, views: batch.length, dropped: Math.max(0, dropped) }, "could not write page views");
      }
    });
    return running;
  }

  const timer = setInterval(() => void flush(), intervalMs);
  timer.unref();

  return {
    seen: (listingId, sessionKey) => recent.has(`${listingId}:${sessionKey}`),
    add(view) {
      const key = `${view.listingId}:${view.sessionKey}`;
      if (recent.size >= RECENT_LIMIT) recent.delete(recent.values().next().value as string);
      recent.add(key);
      pending.push(view);
    },
    track(decision) {
      const settled = decision.then(
        () => undefined,
        () => undefined,
      );
      deciding.add(settled);
      void settled.then(() => deciding.delete(settled));
    },
    flush,
    async stop() {
      clearInterval(timer);
      await Promise.all(deciding);
      await flush();
    },
  };
}
