import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import sharp from "sharp";
import { afterAll, afterEach, expect, it } from "vitest";
import {
  EVERYTHING,
  type InvalidationWatcher,
  invalidatePublicPages,
  invalidateViewCounts,
  type PageChange,
  watchPageInvalidations,
} from "../../app/cache/invalidation.server";
import type { DB } from "../../app/db/db.server";
import { markOwnerListingLet, renewOwnerListing } from "../../app/models/listing-availability.server";
import { hideListing, restoreListing } from "../../app/models/listing-moderation.server";
import {
  createOwnerListing,
  deleteOwnerListing,
  type ListingOwner,
  updateOwnerListing,
} from "../../app/models/owner-listings.server";
import { createReport } from "../../app/models/report.server";
import { reinstateUser, suspendUser } from "../../app/models/user-moderation.server";
import { seedDemo } from "../../app/seed/demo.server";
import { createLocalPhotoStorage } from "../../app/storage/storage.server";
import { insertTestOwner } from "../factories";
import { LISTING_FORM } from "../owner-fixtures";
import { describeEachDatabase } from "../test-db";

// Every write that changes a public page must tell every process serving
// pages (ADR 012); these tests read the log as such a process does.
const log = pino({ level: "silent" });
const photoRoot = fs.mkdtempSync(path.join(os.tmpdir(), "bodima-invalidate-"));
const storage = createLocalPhotoStorage(photoRoot);
afterAll(() => fs.rmSync(photoRoot, { recursive: true, force: true }));
const moderator = { id: "moderator", email: "mod@example.com" };

let watcher: InvalidationWatcher | undefined;
afterEach(() => watcher?.stop());

/** Starts reading the log now; `changes()` reads what was written since. */
async function watch(db: DB) {
  const seen: PageChange[] = [];
  watcher = await watchPageInvalidations({ db, log, onChange: (c) => seen.push(c), intervalMs: 60_000 });
  return async () => {
    await watcher!.poll();
    return seen.splice(0);
  };
}

/** A promise and the function that resolves it. */
function signal(): [Promise<void>, () => void] {
  const { promise, resolve } = Promise.withResolvers<void>();
  return [promise, resolve];
}

let seq = 0;
async function ownerWithListing(db: DB): Promise<{ owner: ListingOwner; listingId: number }> {
  const { id, email, phone } = await insertTestOwner(db, `invalidate-${++seq}-${Date.now()}`);
  const owner = { id, email, name: "Kamala Perera", phone };
  const photo = await sharp({ create: { width: 200, height: 150, channels: 3, background: "#888" } })
    .jpeg()
    .toBuffer();
  const created = await createOwnerListing(db, storage, owner, LISTING_FORM, { files: [photo] });
  if (!created.ok) throw new Error("listing not created");
  return { owner, listingId: created.listing.id };
}

describeEachDatabase("page cache invalidation", (ctx) => {
  it("tells the newest invalidation read apart from the newest that changed more than view counts", async () => {
    const { db } = ctx();
    const changes = await watch(db);
    const start = watcher!.seen();
    expect(watcher!.changed()).toBe(start);
    await invalidatePublicPages(db, [424_242]);
    await changes();
    const written = watcher!.seen();
    expect(written).toBeGreaterThan(start);
    expect(watcher!.changed()).toBe(written);
    // A batch of views moves what was seen, not what was changed (ADR 113: a page shared from before them is kept).
    await invalidateViewCounts(db, [424_242, 424_243]);
    expect(await changes()).toEqual([{ all: false, listingIds: [], viewedListingIds: [424_242, 424_243] }]);
    expect(watcher!.seen()).toBeGreaterThan(written);
    expect(watcher!.changed()).toBe(written);
  });

  it("a new listing invalidates the lists (and its own pages)", async () => {
    const { db } = ctx();
    const changes = await watch(db);
    const { listingId } = await ownerWithListing(db);
    expect(await changes()).toEqual([{ all: false, listingIds: [listingId], viewedListingIds: [] }]);
  });

  it("an edit, a renewal and a delete by the owner invalidate that listing", async () => {
    const { db } = ctx();
    const { owner, listingId } = await ownerWithListing(db);
    const changes = await watch(db);
    const edited = await updateOwnerListing(
      db,
      storage,
      owner,
      listingId,
      { ...LISTING_FORM, title: "Quiet room near campus" },
      { files: [] },
    );
    expect(edited.ok).toBe(true);
    expect(await changes()).toEqual([{ all: false, listingIds: [listingId], viewedListingIds: [] }]);
    expect((await renewOwnerListing(db, owner.id, listingId)).ok).toBe(true);
    expect(await changes()).toEqual([{ all: false, listingIds: [listingId], viewedListingIds: [] }]);
    expect((await deleteOwnerListing(db, storage, owner.id, listingId)).ok).toBe(true);
    expect(await changes()).toEqual([{ all: false, listingIds: [listingId], viewedListingIds: [] }]);
  });

  it("'No longer available' and bringing it back ('Still available') invalidate that listing", async () => {
    const { db } = ctx();
    const { owner, listingId } = await ownerWithListing(db);
    const changes = await watch(db);
    expect((await markOwnerListingLet(db, owner.id, listingId)).ok).toBe(true);
    expect(await changes()).toEqual([{ all: false, listingIds: [listingId], viewedListingIds: [] }]);
    expect((await renewOwnerListing(db, owner.id, listingId)).ok).toBe(true);
    expect(await changes()).toEqual([{ all: false, listingIds: [listingId], viewedListingIds: [] }]);
  });

  it("a refused write (someone else's listing) invalidates nothing", async () => {
    const { db } = ctx();
    const { owner, listingId } = await ownerWithListing(db);
    const stranger = { ...owner, id: (await insertTestOwner(db, `stranger-${++seq}-${Date.now()}`)).id };
    const changes = await watch(db);
    const edited = await updateOwnerListing(
      db,
      storage,
      stranger,
      listingId,
      { ...LISTING_FORM, title: "Taken over" },
      { files: [] },
    );
    expect(edited.ok).toBe(false);
    expect((await deleteOwnerListing(db, storage, stranger.id, listingId)).ok).toBe(false);
    expect((await renewOwnerListing(db, stranger.id, listingId)).ok).toBe(false);
    expect((await markOwnerListingLet(db, stranger.id, listingId)).ok).toBe(false);
    expect(await changes()).toEqual([]);
  });

  it("hiding and restoring by a moderator, and hiding by reports, invalidate that listing", async () => {
    const { db } = ctx();
    const { listingId } = await ownerWithListing(db);
    const changes = await watch(db);
    expect((await hideListing(db, moderator, listingId, "Scam")).ok).toBe(true);
    expect(await changes()).toEqual([{ all: false, listingIds: [listingId], viewedListingIds: [] }]);
    expect((await restoreListing(db, moderator, listingId, null)).ok).toBe(true);
    expect(await changes()).toEqual([{ all: false, listingIds: [listingId], viewedListingIds: [] }]);
    const report = {
      listingId: String(listingId),
      reporterName: "A",
      reporterEmail: "a@example.com",
      reporterContact: "0770000000",
      reason: "fake-listing" as const,
      description: "",
    };
    // A signed-in reporter from one network: weight 2 (ADR 017), enough at REPORT_AUTO_HIDE 1;
    // filed after the restore's cool-down (reports right after a restore do not count).
    const reporter = { originGroup: "192.0.2.0/24", visitorKey: "v1", userId: "reporter-1" };
    const reported = await createReport(db, report, {
      autoHideAt: 1,
      reporter,
      now: new Date(Date.now() + 25 * 3600_000),
    });
    expect(reported).toMatchObject({ ok: true, autoHidden: true });
    expect(await changes()).toEqual([{ all: false, listingIds: [listingId], viewedListingIds: [] }]);
  });

  it("suspending and reinstating an owner invalidate every page", async () => {
    const { db } = ctx();
    const { owner } = await ownerWithListing(db);
    const changes = await watch(db);
    expect((await suspendUser(db, moderator, owner.id, "Fraud")).ok).toBe(true);
    expect(await changes()).toEqual([EVERYTHING]);
    expect((await reinstateUser(db, moderator, owner.id, null)).ok).toBe(true);
    expect(await changes()).toEqual([EVERYTHING]);
  });

  it("demo data added to an empty database invalidates every page", async () => {
    const { db } = ctx();
    await db.deleteFrom("listing_views").execute();
    await db.deleteFrom("reports").execute();
    await db.deleteFrom("listing_photos").execute();
    await db.deleteFrom("listings").execute();
    const changes = await watch(db);
    expect(await seedDemo(db, storage)).toBeGreaterThan(0);
    expect(await changes()).toEqual([EVERYTHING]);
  });

  it("writes that commit out of order are all read: a later one never hides an earlier one", async () => {
    const { db, dialect } = ctx();
    const changes = await watch(db);
    const [held, release] = signal();
    const [firstInserted, inserted] = signal();
    // A slow write (an owner's edit) has drawn its invalidation's id but not committed yet...
    const first = db.transaction().execute(async (trx) => {
      await invalidatePublicPages(trx, [901]);
      inserted();
      await held;
    });
    await firstInserted;
    // ...when a quick one draws the next id and commits.
    const second = invalidatePublicPages(db, [902]);
    const read: PageChange[] = [];
    if (dialect === "postgres") {
      // A watcher reads meanwhile (on SQLite's one connection it would wait for the writer).
      await new Promise((resolve) => setTimeout(resolve, 200));
      read.push(...(await changes()));
    }
    release();
    await Promise.all([first, second]);
    read.push(...(await changes()));
    expect(read.flatMap((change) => change.listingIds).sort()).toEqual([901, 902]);
  });

  it("a new listing's photos being stored hold up no other write's invalidation", async () => {
    const { db, dialect } = ctx();
    // On SQLite every write waits for the one before it, whatever it holds (one connection).
    if (dialect !== "postgres") return;
    const [stored, release] = signal();
    const [storingStarted, storing] = signal();
    // Storage as slow as a far object store: the write's transaction is open while a photo is put.
    const slowStorage: typeof storage = {
      ...storage,
      put: async (key, data) => {
        storing();
        await stored;
        await storage.put(key, data);
      },
    };
    const { id, email, phone } = await insertTestOwner(db, `invalidate-slow-${Date.now()}`);
    const photo = await sharp({ create: { width: 200, height: 150, channels: 3, background: "#777" } })
      .jpeg()
      .toBuffer();
    const posting = createOwnerListing(db, slowStorage, { id, email, name: "Kamala Perera", phone }, LISTING_FORM, {
      files: [photo],
    });
    await storingStarted;
    // Another owner's edit, a moderator, a batch of views: each ends by logging its invalidation.
    const other = invalidatePublicPages(db, [904]).then(() => "written");
    const outcome = await Promise.race([other, new Promise((resolve) => setTimeout(resolve, 2_000, "waiting"))]);
    release();
    expect(outcome).toBe("written");
    expect((await posting).ok).toBe(true);
    await other;
  });

  it("a process that cannot read the log forgets every page rather than serve a stale one", async () => {
    const { db } = ctx();
    let reachable = true;
    // The database as the watcher sees it: reads fail once the connection is lost.
    const flaky = new Proxy(db, {
      get(target, name, receiver) {
        if (name === "selectFrom" && !reachable)
          return () => {
            throw new Error("connection lost");
          };
        const value = Reflect.get(target, name, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const seen: PageChange[] = [];
    watcher = await watchPageInvalidations({ db: flaky, log, onChange: (c) => seen.push(c), intervalMs: 60_000 });
    reachable = false;
    await watcher.poll();
    expect(seen).toEqual([EVERYTHING]);
  });
});
