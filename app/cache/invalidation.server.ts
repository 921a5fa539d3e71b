import type { Logger } from "pino";
import type { DB } from "~/db/db.server";
import { lockName } from "~/db/locks.server";
import { currentTime } from "~/lib/clock";

/**
 * Honest invalidation of the page cache across every process that serves
 * pages (ADR 012). A write that changes what a public page shows adds rows to
 * page_invalidations in its own transaction (so a rolled-back write
 * invalidates nothing, and a committed one always does); each process reads
 * the rows it has not seen four times a second and drops the pages they name.
 */
export type PageChange = {
  all: boolean;
  /** Listings that changed: their pages and every list. */
  listingIds: number[];
  /** Listings whose view counts changed: their own pages only. */
  viewedListingIds: number[];
};

/** What a process does when it cannot tell what changed. */
export const EVERYTHING: PageChange = { all: true, listingIds: [], viewedListingIds: [] };

/**
 * Called by every write that changes a public page: a listing's pages, or "all" (a suspension, a seed).
 * In a transaction, call it last: on PostgreSQL it holds a lock until commit (`insertInOrder`).
 */
export async function invalidatePublicPages(
  db: DB,
  listingIds: readonly number[] | "all",
  now = currentTime(),
): Promise<void> {
  const createdAt = now.toISOString();
  const rows =
    listingIds === "all" ? [{ listingId: null, createdAt }] : listingIds.map((listingId) => ({ listingId, createdAt }));
  await insertInOrder(db, rows);
}

type InvalidationRow = { listingId: number | null; viewsOnly?: number; createdAt: string };

/**
 * Adds rows so that their ids become visible in the order they were given out.
 * The watchers read `id > the last one seen`; on PostgreSQL two transactions
 * could otherwise commit out of order (id 101 before 100), and a watcher that
 * had read 101 would never read 100: its pages would stay stale for minutes.
 * A transaction-scoped lock taken before the ids are drawn holds until commit,
 * so the next id is drawn only once the last is visible. It serializes only
 * the ends of page-changing writes, which are few, as long as a write logs its
 * invalidation as its last step: everything the transaction does after it
 * (storing photos, checking them) holds up every other page-changing write in
 * the cluster, views included. SQLite serializes every write already.
 */
async function insertInOrder(db: DB, rows: InvalidationRow[]): Promise<void> {
  if (rows.length === 0) return;
  const insert = async (trx: DB) => {
    await lockName(trx, "page_invalidations");
    await trx.insertInto("page_invalidations").values(rows).execute();
  };
  if (db.isTransaction) await insert(db);
  else await db.transaction().execute(insert);
}

/** Written with a batch of views (app/models/view-tracking.server.ts), so the count a visitor sees is seconds old. */
export async function invalidateViewCounts(db: DB, listingIds: readonly number[], now = currentTime()): Promise<void> {
  const createdAt = now.toISOString();
  await insertInOrder(
    db,
    listingIds.map((listingId) => ({ listingId, viewsOnly: 1, createdAt })),
  );
}

/** How long rows are kept: far longer than any process takes to read them. */
const KEEP_MS = 60 * 60 * 1000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

export type InvalidationWatcher = {
  stop(): void;
  poll(): Promise<void>;
  /** The newest invalidation read and applied so far (a page rendered after it shows every change up to it). */
  seen(): number;
  /** The newest of them that changed more than view counts (a write, or "all"): ADR 113. */
  changed(): number;
};

export async function watchPageInvalidations({
  db,
  log,
  onChange,
  intervalMs = 250,
}: {
  db: DB;
  log: Logger;
  onChange: (change: PageChange) => void;
  intervalMs?: number;
}): Promise<InvalidationWatcher> {
  const newest = await db
    .selectFrom("page_invalidations")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirst();
  let lastSeen = Number(newest?.id ?? 0);
  let lastChanged = lastSeen;
  let lastPrune = 0;
  let polling: Promise<void> | null = null;

  async function readNew(): Promise<void> {
    try {
      const rows = await db
        .selectFrom("page_invalidations")
        .select(["id", "listingId", "viewsOnly"])
        .where("id", ">", lastSeen)
        .orderBy("id")
        .execute();
      if (rows.length > 0) {
        lastSeen = Number(rows[rows.length - 1].id);
        const writes = rows.filter((r) => !Number(r.viewsOnly));
        if (writes.length > 0) lastChanged = Number(writes[writes.length - 1].id);
        const all = rows.some((r) => r.listingId === null);
        const ids = (viewsOnly: boolean) => [
          ...new Set(rows.filter((r) => !!Number(r.viewsOnly) === viewsOnly).map((r) => Number(r.listingId))),
        ];
        onChange(all ? EVERYTHING : { all, listingIds: ids(false), viewedListingIds: ids(true) });
      }
      if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
        lastPrune = Date.now();
        await db
          .deleteFrom("page_invalidations")
          .where("createdAt", "<", new Date(Date.now() - KEEP_MS).toISOString())
          .execute();
      }
    } catch (error) {
      // Unable to learn what changed: forget every page rather than serve a stale one.
      log.error({ err: error }, "could not read page invalidations; the page cache was emptied");
      onChange(EVERYTHING);
    }
  }

  function poll(): Promise<void> {
    polling ??= readNew().finally(() => {
      polling = null;
    });
    return polling;
  }

  const timer = setInterval(() => void poll(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), poll, seen: () => lastSeen, changed: () => lastChanged };
}
