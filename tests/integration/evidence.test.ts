import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import sharp from "sharp";
import { afterAll, afterEach, expect, it } from "vitest";
import { type InvalidationWatcher, type PageChange, watchPageInvalidations } from "../../app/cache/invalidation.server";
import type { DB } from "../../app/db/db.server";
import { parseEnv } from "../../app/env.server";
import { runJob } from "../../app/jobs/jobs.server";
import { listPublicSlugs } from "../../app/models/listing.server";
import { hideListing, restoreListing } from "../../app/models/listing-moderation.server";
import { searchListings } from "../../app/models/listing-search.server";
import { listOwnerListings } from "../../app/models/owner-listing-reads.server";
import { countOwnerListings, createOwnerListing } from "../../app/models/owner-listings.server";
import { variantKey } from "../../app/models/photo.server";
import type { listReportQueue } from "../../app/models/report-review.server";
import { loader as adminQueueLoader } from "../../app/routes/admin._index";
import { loader as adminReportLoader } from "../../app/routes/admin.reports.$id";
import { loader as apiListingLoader } from "../../app/routes/api.listings.$idOrSlug";
import { action as deleteAction } from "../../app/routes/dashboard.listings.$id.delete";
import { loader as listingLoader } from "../../app/routes/listing";
import { loader as photoLoader } from "../../app/routes/photos.$key";
import { createLocalPhotoStorage, type PhotoStorage } from "../../app/storage/storage.server";
import { LISTING_FORM, signedInAccount } from "../owner-fixtures";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { describeEachDatabase } from "../test-db";

// ADR 020: an owner deleting a reported or hidden listing keeps the
// evidence for moderators; photos of listings the public cannot see answer
// 404 and no public photo is cached for a year; a daily sweep removes photo
// files no row refers to.

const DAY = 24 * 60 * 60 * 1000;
const log = pino({ level: "silent" });
const dirs: string[] = [];
let watcher: InvalidationWatcher | undefined;

afterEach(() => watcher?.stop());
afterAll(async () => {
  await Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

async function tempStorage(): Promise<{ dir: string; storage: PhotoStorage }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "bodima-evidence-"));
  dirs.push(dir);
  return { dir, storage: createLocalPhotoStorage(dir) };
}

const jpeg = () =>
  sharp({ create: { width: 320, height: 240, channels: 3, background: "#468" } })
    .jpeg()
    .toBuffer();

async function ownerWithListing(db: DB, storage: PhotoStorage, title = "Reported room near campus") {
  const { owner, cookie } = await signedInAccount(db, "evidence");
  const created = await createOwnerListing(db, storage, owner, { ...LISTING_FORM, title }, { files: [await jpeg()] });
  if (!created.ok) throw new Error("listing not created");
  const photo = await db
    .selectFrom("listing_photos")
    .select("variants")
    .where("listingId", "=", created.listing.id)
    .executeTakeFirstOrThrow();
  const photoKey = (JSON.parse(photo.variants) as { key: string }[])[0]!.key;
  return { owner, cookie, listing: created.listing, photoKey };
}

async function report(db: DB, listingId: number) {
  const id = crypto.randomUUID();
  const at = new Date().toISOString();
  await db
    .insertInto("reports")
    .values({
      id,
      listingId,
      reporterName: "Student",
      reporterEmail: "student@example.lk",
      reporterContact: "",
      reason: "scam",
      description: "Asked for money first",
      status: "pending",
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  return id;
}

function page(url: string, cookie?: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (cookie) headers.set("cookie", cookie);
  return new Request(new URL(url, TEST_SITE), { ...init, headers });
}

async function ownerDeletes(db: DB, storage: PhotoStorage, cookie: string, id: number) {
  const request = page(`/dashboard/listings/${id}/delete`, cookie, {
    method: "POST",
    headers: { origin: TEST_SITE },
    body: new URLSearchParams(),
  });
  return deleteAction({ request, context: testContext({ db, storage }), params: { id: String(id) } } as never);
}

async function publicStatus(db: DB, slug: string, id: number) {
  const context = testContext({ db });
  const listing = unwrapResult(
    await listingLoader({ request: page(`/listing/${slug}`), context, params: { slug } } as never),
  ).status;
  const apiResponse = await apiListingLoader({
    request: page(`/api/listings/${id}`),
    context,
    params: { idOrSlug: String(id) },
  } as never);
  return { listing, api: (apiResponse as Response).status };
}

async function photo(db: DB, storage: PhotoStorage, key: string, cookie?: string) {
  return (await photoLoader({
    request: page(`/photos/${key}`, cookie),
    context: testContext({ db, storage }),
    params: { key },
  } as never)) as Response;
}

describeEachDatabase("evidence and files", (ctx) => {
  it("an owner deleting a reported listing: gone from every public view and from the owner's list and count, kept with its reports in /admin", async () => {
    const { db } = ctx();
    const { storage } = await tempStorage();
    const { owner, cookie, listing, photoKey } = await ownerWithListing(db, storage);
    const reportId = await report(db, listing.id);
    expect(await publicStatus(db, listing.slug, listing.id)).toEqual({ listing: 200, api: 200 });
    const seen: PageChange[] = [];
    watcher = await watchPageInvalidations({ db, log, onChange: (c) => seen.push(c), intervalMs: 60_000 });

    const response = (await ownerDeletes(db, storage, cookie, listing.id)) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard?deleted=1");

    // Public: the page and the API answer 404, browse and the sitemap leave it out, its photos 404.
    expect(await publicStatus(db, listing.slug, listing.id)).toEqual({ listing: 404, api: 404 });
    const browse = await searchListings(db, { search: "Reported" }, { page: 1, limit: 50 });
    expect(browse.ads.map((a) => a.id)).not.toContain(String(listing.id));
    expect((await listPublicSlugs(db)).map((s) => s.slug)).not.toContain(listing.slug);
    expect((await photo(db, storage, photoKey)).status).toBe(404);
    // The page cache is told, as for a delete.
    await watcher.poll();
    expect(seen.flatMap((c) => c.listingIds)).toContain(listing.id);

    // The owner: no longer in My Ads or the counts (a new listing can take its place), and deleting again is "not found".
    expect((await listOwnerListings(db, owner.id)).map((l) => l.id)).not.toContain(listing.id);
    expect(await countOwnerListings(db, owner.id)).toBe(0);
    await expect(ownerDeletes(db, storage, cookie, listing.id)).rejects.toMatchObject({ init: { status: 404 } });

    // Moderators: the listing, its report and its photo are all still there.
    const moderator = await signedInAccount(db, "moderator", { role: "moderator" });
    const modContext = testContext({ db, storage });
    const queue = (await adminQueueLoader({
      request: page("/admin", moderator.cookie),
      context: modContext,
      params: {},
    } as never)) as {
      queue: Awaited<ReturnType<typeof listReportQueue>>;
    };
    const group = queue.queue.groups.find((g) => g.listing.id === listing.id);
    expect(group?.listing.status).toBe("deleted");
    expect(group?.reports.map((r) => r.id)).toEqual([reportId]);
    const detail = (await adminReportLoader({
      request: page(`/admin/reports/${reportId}`, moderator.cookie),
      context: modContext,
      params: { id: reportId },
    } as never)) as {
      listing: { id: number; title: string; status: string };
    };
    expect(detail.listing).toMatchObject({ id: listing.id, title: "Reported room near campus", status: "deleted" });
    expect((await photo(db, storage, photoKey, moderator.cookie)).status).toBe(200);
    // A moderator cannot bring it back to the public by hiding and restoring it.
    const actor = { id: moderator.owner.id, email: moderator.owner.email };
    expect((await hideListing(db, actor, listing.id, "evidence")).ok).toBe(false);
    expect((await restoreListing(db, actor, listing.id, null)).ok).toBe(false);
    expect(
      (await db.selectFrom("listings").select("status").where("id", "=", listing.id).executeTakeFirstOrThrow()).status,
    ).toBe("deleted");
  });

  it("an owner deleting a hidden listing keeps it for moderators too; an unreported, visible one is deleted outright", async () => {
    const { db } = ctx();
    const { storage } = await tempStorage();
    const { owner, cookie, listing } = await ownerWithListing(db, storage, "Hidden room");
    const actor = { id: "moderator", email: "mod@example.com" };
    expect((await hideListing(db, actor, listing.id, "Fake photos")).ok).toBe(true);
    await ownerDeletes(db, storage, cookie, listing.id);
    const kept = await db
      .selectFrom("listings")
      .select(["status", "hiddenReason"])
      .where("id", "=", listing.id)
      .executeTakeFirst();
    expect(kept).toEqual({ status: "deleted", hiddenReason: "Fake photos" });
    expect(await countOwnerListings(db, owner.id)).toBe(0);

    const plain = await createOwnerListing(
      db,
      storage,
      owner,
      { ...LISTING_FORM, title: "Plain room" },
      { files: [await jpeg()] },
    );
    if (!plain.ok) throw new Error("listing not created");
    await ownerDeletes(db, storage, cookie, plain.listing.id);
    expect(
      await db.selectFrom("listings").select("id").where("id", "=", plain.listing.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await db.selectFrom("listing_photos").select("id").where("listingId", "=", plain.listing.id).execute(),
    ).toEqual([]);
  });

  it("a photo of a hidden listing answers 404 (its owner still sees it, privately); a public photo is not cached for a year", async () => {
    const { db } = ctx();
    const { storage } = await tempStorage();
    const { cookie, listing, photoKey } = await ownerWithListing(db, storage, "Photo room");
    const visible = await photo(db, storage, photoKey);
    expect(visible.status).toBe(200);
    const cacheControl = visible.headers.get("Cache-Control") ?? "";
    expect(cacheControl).not.toMatch(/immutable/);
    expect(Number(/max-age=(\d+)/.exec(cacheControl)?.[1])).toBeLessThanOrEqual(3600);

    expect((await hideListing(db, { id: "moderator", email: "mod@example.com" }, listing.id, "Fake photos")).ok).toBe(
      true,
    );
    const hidden = await photo(db, storage, photoKey);
    expect(hidden.status).toBe(404);
    expect(hidden.headers.get("Cache-Control")).toBe("no-store");
    const stranger = await signedInAccount(db, "stranger");
    expect((await photo(db, storage, photoKey, stranger.cookie)).status).toBe(404);
    const own = await photo(db, storage, photoKey, cookie);
    expect(own.status).toBe(200);
    expect(own.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("the daily sweep removes photo files older than a day that no row refers to, and keeps every file with a row", async () => {
    const { db } = ctx();
    const { dir, storage } = await tempStorage();
    const { listing } = await ownerWithListing(db, storage, "Swept room");
    const withRows = await fs.readdir(dir);
    expect(withRows.length).toBeGreaterThan(0);
    const orphanOld = variantKey(crypto.randomUUID(), 800);
    const orphanNew = variantKey(crypto.randomUUID(), 800);
    await fs.writeFile(path.join(dir, orphanOld), "old orphan");
    await fs.writeFile(path.join(dir, orphanNew), "an upload whose row is being written");
    await fs.writeFile(path.join(dir, "README.txt"), "not a photo");
    // A row may name a file of another id (the synthetic seed's shared pool of pictures).
    const shared = variantKey(crypto.randomUUID(), 400);
    await fs.writeFile(path.join(dir, shared), "shared picture");
    const { owner } = await ownerWithListing(db, storage, "Pool room");
    const at = new Date().toISOString();
    await db
      .insertInto("listing_photos")
      .values({
        id: crypto.randomUUID(),
        listingId: listing.id,
        userId: owner.id,
        position: 1,
        width: 400,
        height: 300,
        bytes: 14,
        variants: JSON.stringify([{ width: 400, height: 300, bytes: 14, key: shared }]),
        alt: null,
        createdAt: at,
      })
      .execute();
    const twoDaysAgo = new Date(Date.now() - 2 * DAY);
    for (const name of await fs.readdir(dir))
      if (name !== orphanNew) await fs.utimes(path.join(dir, name), twoDaysAgo, twoDaysAgo);
    const before = await fs.readdir(dir);

    const env = parseEnv({ SITE_URL: TEST_SITE, NODE_ENV: "test" });
    const counts = await runJob("sweep-orphan-photos", {
      db,
      env,
      storage,
      log,
      mail: () => {
        throw new Error("no mail");
      },
    });
    expect(counts.removed).toBe(1);
    const left = await fs.readdir(dir);
    expect(left).not.toContain(orphanOld);
    expect(left.sort()).toEqual(before.filter((name) => name !== orphanOld).sort());
    expect(left).toEqual(expect.arrayContaining([...withRows, orphanNew, "README.txt", shared]));
  });
});
