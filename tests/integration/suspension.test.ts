import { expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { insertListing } from "../../app/models/listing.server";
import { markOwnerListingLet } from "../../app/models/listing-availability.server";
import { hideListing, restoreListing } from "../../app/models/listing-moderation.server";
import { variantKey } from "../../app/models/photo.server";
import { createReport } from "../../app/models/report.server";
import { reinstateUser, suspendUser } from "../../app/models/user-moderation.server";
import { loader as apiListLoader } from "../../app/routes/api.listings";
import { loader as apiListingLoader } from "../../app/routes/api.listings.$idOrSlug";
import { loader as listingLoader } from "../../app/routes/listing";
import { loader as photoLoader } from "../../app/routes/photos.$key";
import { loader as sitemapLoader } from "../../app/routes/sitemap[.]xml";
import type { PhotoStorage } from "../../app/storage/storage.server";
import { insertTestOwner, listingInput, reportInput } from "../factories";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { tempPhotoStorage } from "../temp-photo-storage";
import { describeEachDatabase } from "../test-db";

// Suspending an owner takes every one of their listings out of public view,
// whatever its state, and reinstating them puts each back as it was; a
// moderator's restore returns a listing to its state before the hide (ADR 063).

const moderator = { id: "mod-suspension", email: "mod@example.com" };
let seq = 0;

type Made = { id: number; slug: string; word: string; photo: string };

/** A listing of `owner` with one stored photo; `word` finds it in search. */
async function listingWithPhoto(db: DB, storage: PhotoStorage, owner: { id: string; email: string }): Promise<Made> {
  const word = `suspword${++seq}x${Date.now().toString(36)}`;
  const made = await insertListing(db, owner, listingInput({ title: `Annex ${word}` }));
  const photoId = crypto.randomUUID();
  const photo = variantKey(photoId, 400);
  await storage.put(photo, Buffer.from("RIFF....WEBPVP8 test photo"));
  await db
    .insertInto("listing_photos")
    .values({
      id: photoId,
      listingId: made.id,
      userId: owner.id,
      position: 0,
      width: 400,
      height: 300,
      bytes: 26,
      variants: JSON.stringify([{ width: 400, height: 300, bytes: 26, key: photo }]),
      alt: null,
      createdAt: new Date().toISOString(),
    })
    .execute();
  return { ...made, word, photo };
}

const request = (path: string) => new Request(`${TEST_SITE}${path}`);

/** What a visitor without a session gets for the listing from each public door. */
async function publicView(db: DB, storage: PhotoStorage, listing: Made) {
  const context = testContext({ db, storage });
  const page = unwrapResult(
    await listingLoader({
      request: request(`/listing/${listing.slug}`),
      context,
      params: { slug: listing.slug },
    } as never),
  ).status;
  const api = (
    (await apiListingLoader({
      request: request(`/api/listings/${listing.id}`),
      context,
      params: { idOrSlug: String(listing.id) },
    } as never)) as Response
  ).status;
  const list = (await (
    (await apiListLoader({
      request: request(`/api/listings?search=${listing.word}`),
      context,
      params: {},
    } as never)) as Response
  ).json()) as { ads: { id: string }[] };
  const sitemap = await (
    (await sitemapLoader({ request: request("/sitemap.xml"), context, params: {} } as never)) as Response
  ).text();
  const photo = (
    (await photoLoader({
      request: request(`/photos/${listing.photo}`),
      context,
      params: { key: listing.photo },
    } as never)) as Response
  ).status;
  return { page, api, inList: list.ads.length > 0, inSitemap: sitemap.includes(listing.slug), photo };
}

async function statusOf(db: DB, id: number) {
  return db.selectFrom("listings").select(["status", "hiddenBy"]).where("id", "=", id).executeTakeFirstOrThrow();
}

const NOWHERE = { page: 404, api: 404, inList: false, inSitemap: false, photo: 404 };

describeEachDatabase("suspension and restore", (ctx) => {
  it("suspending an owner hides every listing whatever its state; reinstating puts each back as it was", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const owner = await insertTestOwner(db, `susp-${crypto.randomUUID()}`);
    const active = await listingWithPhoto(db, storage, owner);
    const expired = await listingWithPhoto(db, storage, owner);
    await db.updateTable("listings").set({ status: "expired" }).where("id", "=", expired.id).execute();
    const letGo = await listingWithPhoto(db, storage, owner);
    expect((await markOwnerListingLet(db, owner.id, letGo.id)).ok).toBe(true);
    const pending = await listingWithPhoto(db, storage, owner);
    await db.updateTable("listings").set({ status: "pending" }).where("id", "=", pending.id).execute();
    const hidden = await listingWithPhoto(db, storage, owner);
    expect(await hideListing(db, moderator, hidden.id, "Spam")).toEqual({ ok: true });

    // Before: the active one everywhere; the expired and let ones keep their page, API entry and photos.
    expect(await publicView(db, storage, active)).toEqual({
      page: 200,
      api: 200,
      inList: true,
      inSitemap: true,
      photo: 200,
    });
    for (const shown of [expired, letGo])
      expect(await publicView(db, storage, shown)).toEqual({
        page: 200,
        api: 200,
        inList: false,
        inSitemap: false,
        photo: 200,
      });

    expect(await suspendUser(db, moderator, owner.id, "Scam reports")).toEqual({ ok: true });
    for (const listing of [active, expired, letGo, pending, hidden])
      expect({ id: listing.id, ...(await publicView(db, storage, listing)) }).toEqual({ id: listing.id, ...NOWHERE });
    // A moderator cannot bring one back while its owner is suspended.
    expect(await restoreListing(db, moderator, letGo.id, null)).toEqual({
      ok: false,
      code: "moderation.owner_suspended",
    });

    expect(await reinstateUser(db, moderator, owner.id, "Appeal accepted")).toEqual({ ok: true });
    expect(await statusOf(db, active.id)).toEqual({ status: "active", hiddenBy: null });
    expect(await statusOf(db, expired.id)).toEqual({ status: "expired", hiddenBy: null });
    expect(await statusOf(db, letGo.id)).toEqual({ status: "let", hiddenBy: null });
    expect(await statusOf(db, pending.id)).toEqual({ status: "pending", hiddenBy: null });
    expect(await statusOf(db, hidden.id)).toEqual({ status: "hidden", hiddenBy: "moderator" });
    expect(await publicView(db, storage, active)).toEqual({
      page: 200,
      api: 200,
      inList: true,
      inSitemap: true,
      photo: 200,
    });
    expect((await publicView(db, storage, letGo)).inList).toBe(false);
  });

  it("a 'let' listing, public on its page, can be reported; hidden by reports and restored, it is 'let' again", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const owner = await insertTestOwner(db, `let-report-${crypto.randomUUID()}`);
    const letGo = await listingWithPhoto(db, storage, owner);
    expect((await markOwnerListingLet(db, owner.id, letGo.id)).ok).toBe(true);
    const reporter = { originGroup: "203.0.113.0/24", visitorKey: "visitor-1", userId: null };
    const reported = await createReport(db, reportInput(letGo.id, { reason: "fake-listing" }), {
      autoHideAt: 1,
      reporter,
    });
    expect(reported).toMatchObject({ ok: true, autoHidden: true });
    expect(await statusOf(db, letGo.id)).toEqual({ status: "hidden", hiddenBy: "reports" });
    expect(await publicView(db, storage, letGo)).toEqual(NOWHERE);
    expect(await restoreListing(db, moderator, letGo.id, "Reports were mistaken")).toEqual({ ok: true });
    expect(await statusOf(db, letGo.id)).toEqual({ status: "let", hiddenBy: null });
  });

  it("restoring a hidden listing returns it to its state before the hide, not to active", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const owner = await insertTestOwner(db, `restore-${crypto.randomUUID()}`);
    const letGo = await listingWithPhoto(db, storage, owner);
    expect((await markOwnerListingLet(db, owner.id, letGo.id)).ok).toBe(true);
    const pending = await listingWithPhoto(db, storage, owner);
    await db.updateTable("listings").set({ status: "pending" }).where("id", "=", pending.id).execute();

    for (const listing of [letGo, pending]) {
      expect(await hideListing(db, moderator, listing.id, "Checking")).toEqual({ ok: true });
      expect(await restoreListing(db, moderator, listing.id, "Fine")).toEqual({ ok: true });
    }
    expect(await statusOf(db, letGo.id)).toEqual({ status: "let", hiddenBy: null });
    expect(await statusOf(db, pending.id)).toEqual({ status: "pending", hiddenBy: null });
    expect((await publicView(db, storage, letGo)).inList).toBe(false);
    expect((await publicView(db, storage, pending)).page).toBe(404);

    // Hidden by a moderator, then by a suspension over it: the state before the first hide is the one kept.
    expect(await hideListing(db, moderator, letGo.id, "Again")).toEqual({ ok: true });
    expect(await suspendUser(db, moderator, owner.id, "Scam reports")).toEqual({ ok: true });
    expect(await reinstateUser(db, moderator, owner.id, null)).toEqual({ ok: true });
    expect(await statusOf(db, letGo.id)).toEqual({ status: "hidden", hiddenBy: "moderator" });
    expect(await restoreListing(db, moderator, letGo.id, null)).toEqual({ ok: true });
    expect(await statusOf(db, letGo.id)).toEqual({ status: "let", hiddenBy: null });
  });
});
