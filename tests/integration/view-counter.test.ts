import pino from "pino";
import { afterEach, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { createMemoryStore, createRateLimiter } from "../../app/limits/rate-limit.server";
import {
  queueListingView,
  recordListingViews,
  startViewCounter,
  type ViewCounter,
} from "../../app/models/view-tracking.server";
import { insertOwnedListing } from "../factories";
import { describeEachDatabase } from "../test-db";

const log = pino({ level: "silent" });
const BROWSER = {
  "user-agent": "Mozilla/5.0 (Linux; Android 13) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36",
};
const at = "2026-11-23T10:00:00.000Z";

let counter: ViewCounter | undefined;
afterEach(async () => {
  await counter?.stop();
  counter = undefined;
});

const listing = (db: DB) => insertOwnedListing(db, "views");

/** The listing's counters as stored (listing_counters, ADR 111); none yet reads as zero. */
async function counts(db: DB, id: number) {
  const row = await db
    .selectFrom("listing_counters")
    .select(["views", "uniqueViews", "lastViewed"])
    .where("listingId", "=", id)
    .executeTakeFirst();
  return row ?? { views: 0, uniqueViews: 0, lastViewed: null };
}

function pageRequest(cookie = "") {
  return {
    method: "GET",
    headers: {
      get: (name: string) => (name === "cookie" ? cookie || null : ((BROWSER as Record<string, string>)[name] ?? null)),
    },
  };
}

describeEachDatabase("buffered page views", (ctx) => {
  it("writes a batch once: a session counts once per listing, a visitor once as unique", async () => {
    const { db } = ctx();
    const a = await listing(db);
    const b = await listing(db);
    const counted = await recordListingViews(db, [
      { listingId: a, sessionKey: "s1", visitorKey: "v1", viewedAt: at },
      { listingId: a, sessionKey: "s1", visitorKey: "v1", viewedAt: at }, // a reload in the same batch
      { listingId: a, sessionKey: "s2", visitorKey: "v1", viewedAt: "2026-11-23T10:00:05.000Z" }, // same visitor, new session
      { listingId: b, sessionKey: "s1", visitorKey: "v1", viewedAt: at },
    ]);
    expect(counted).toHaveLength(3);
    expect(await counts(db, a)).toEqual({ views: 2, uniqueViews: 1, lastViewed: "2026-11-23T10:00:05.000Z" });
    expect(await counts(db, b)).toMatchObject({ views: 1, uniqueViews: 1 });

    // A later batch: the same session again counts nothing, a known visitor is not unique again.
    await recordListingViews(db, [
      { listingId: a, sessionKey: "s1", visitorKey: "v1", viewedAt: at },
      { listingId: a, sessionKey: "s3", visitorKey: "v1", viewedAt: at },
      { listingId: a, sessionKey: "s4", visitorKey: "v2", viewedAt: at },
    ]);
    expect(await counts(db, a)).toMatchObject({ views: 4, uniqueViews: 2 });
  });

  it("tells every process serving pages which listings' counts changed (their own pages only)", async () => {
    const { db } = ctx();
    const a = await listing(db);
    const newest = await db
      .selectFrom("page_invalidations")
      .select((eb) => eb.fn.max("id").as("id"))
      .executeTakeFirst();
    await recordListingViews(db, [
      { listingId: a, sessionKey: "s1", visitorKey: "v1", viewedAt: at },
      { listingId: a, sessionKey: "s2", visitorKey: "v2", viewedAt: at },
    ]);
    const rows = await db
      .selectFrom("page_invalidations")
      .select(["listingId", "viewsOnly"])
      .where("id", ">", Number(newest?.id ?? 0))
      .execute();
    expect(rows.map((r) => ({ listingId: r.listingId, viewsOnly: Number(r.viewsOnly) }))).toEqual([
      { listingId: a, viewsOnly: 1 },
    ]);
  });

  it("drops views of a listing deleted before the batch was written, and counts the rest", async () => {
    const { db } = ctx();
    const gone = await listing(db);
    const kept = await listing(db);
    await db.deleteFrom("listings").where("id", "=", gone).execute();
    const counted = await recordListingViews(db, [
      { listingId: gone, sessionKey: "s1", visitorKey: "v1", viewedAt: at },
      { listingId: kept, sessionKey: "s1", visitorKey: "v1", viewedAt: at },
    ]);
    expect(counted.map((v) => v.listingId)).toEqual([kept]);
    expect(await counts(db, kept)).toMatchObject({ views: 1 });
  });

  it("writes hundreds of views in one flush, not one write per view", async () => {
    const { db } = ctx();
    const id = await listing(db);
    counter = startViewCounter({ db, log, intervalMs: 60_000 });
    for (let i = 0; i < 450; i++)
      counter.add({ listingId: id, sessionKey: `s${i}`, visitorKey: `v${i % 300}`, viewedAt: at });
    expect((await counts(db, id)).views).toBe(0);
    await counter.flush();
    expect(await counts(db, id)).toMatchObject({ views: 450, uniqueViews: 300 });
  });

  it("writes what is still buffered when the server stops (SIGTERM)", async () => {
    const { db } = ctx();
    const id = await listing(db);
    counter = startViewCounter({ db, log, intervalMs: 60_000 });
    counter.add({ listingId: id, sessionKey: "s1", visitorKey: "v1", viewedAt: at });
    await counter.stop();
    counter = undefined;
    expect((await counts(db, id)).views).toBe(1);
  });

  it("a view still waiting for its limit's answer when the server stops (SIGTERM) is written too", async () => {
    const { db } = ctx();
    const id = await listing(db);
    counter = startViewCounter({ db, log, intervalMs: 60_000 });
    // The limit's store answers after 100 ms, as the cluster's primary or Redis may under load.
    const memory = createMemoryStore();
    const slow = {
      increment: async (...args: Parameters<typeof memory.increment>) => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        return memory.increment(...args);
      },
      reset: memory.reset,
    };
    const options = {
      visitorSalt: "salt",
      visitorSecret: "v".repeat(64),
      secure: false,
      limit: { limiter: createRateLimiter(slow), clientIp: "192.0.2.9" },
      counter,
    };
    expect(queueListingView(pageRequest(), id, options)?.cookies).toHaveLength(2);
    // The page has been answered; the server is told to stop at once.
    await counter.stop();
    counter = undefined;
    expect((await counts(db, id)).views).toBe(1);
  });

  it("queues a page view with its cookies at once, and a reload of the same session is not queued again", async () => {
    const { db } = ctx();
    const id = await listing(db);
    counter = startViewCounter({ db, log, intervalMs: 60_000 });
    const options = {
      visitorSalt: "salt",
      visitorSecret: "v".repeat(64),
      secure: false,
      limit: { limiter: createRateLimiter(createMemoryStore()), clientIp: "192.0.2.7" },
      counter,
    };
    const first = queueListingView(pageRequest(), id, options);
    expect(first?.cookies).toHaveLength(2);
    await first?.queued;
    const jar = first!.cookies.map((c) => c.split(";")[0]).join("; ");
    const reload = queueListingView(pageRequest(jar), id, options);
    expect(reload?.cookies).toEqual([]);
    await reload?.queued;
    await counter.flush();
    expect(await counts(db, id)).toMatchObject({ views: 1, uniqueViews: 1 });
  });

  it("does not count crawlers", async () => {
    const { db } = ctx();
    const id = await listing(db);
    counter = startViewCounter({ db, log, intervalMs: 60_000 });
    const crawler = {
      method: "GET",
      headers: {
        get: (name: string) => (name === "user-agent" ? "Googlebot/2.1 (+http://www.google.com/bot.html)" : null),
      },
    };
    const options = {
      visitorSalt: "salt",
      visitorSecret: "v".repeat(64),
      secure: false,
      limit: { limiter: createRateLimiter(createMemoryStore()), clientIp: "192.0.2.8" },
      counter,
    };
    expect(queueListingView(crawler, id, options)).toBeNull();
    await counter.flush();
    expect((await counts(db, id)).views).toBe(0);
  });
});
