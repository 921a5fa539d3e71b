import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { findListingById } from "../../app/models/listing.server";
import { findOwnerListingForm } from "../../app/models/owner-listing-reads.server";
import { createOwnerListing, type ListingOwner, updateOwnerListing } from "../../app/models/owner-listings.server";
import { storePhoto } from "../../app/models/photo.server";
import { viewCountsOf } from "../../app/models/view-tracking.server";
import { action as editAction, loader as editLoader } from "../../app/routes/dashboard.listings.$id.edit";
import { createLocalPhotoStorage, type PhotoStorage } from "../../app/storage/storage.server";
import { LISTING_FORM, signedInAccount } from "../owner-fixtures";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { describeEachDatabase } from "../test-db";

// Editing a listing (ADR 009): the owner changes fields and photos; anyone
// else, or any tampered field, changes nothing.

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

async function tempStorage(): Promise<{ storage: PhotoStorage; files: () => Promise<string[]> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "bodima-edit-"));
  dirs.push(dir);
  return { storage: createLocalPhotoStorage(dir), files: async () => (await fs.readdir(dir)).sort() };
}

const form: Record<string, string> = {
  ...LISTING_FORM,
  keymoneyFee: "",
  contactName: "Kamala Perera",
  // Each owner's own number (signedInAccount gives one, confirmed): the 3 ads per phone count across accounts.
  contactPhone: "",
};

const jpeg = (shade: number, width = 640, height = 480) =>
  sharp({ create: { width, height, channels: 3, background: { r: shade, g: 120, b: 90 } } })
    .jpeg()
    .toBuffer();

async function postedListing(db: DB, storage: PhotoStorage, owner: ListingOwner, photos = 2) {
  const files = await Promise.all(Array.from({ length: photos }, (_, i) => jpeg(20 + i * 40)));
  const result = await createOwnerListing(db, storage, owner, form, { files }, new Date("2026-11-01T08:00:00Z"));
  if (!result.ok) throw new Error(result.code);
  return result.listing;
}

async function snapshot(db: DB, listingId: number) {
  const listing = await db.selectFrom("listings").selectAll().where("id", "=", listingId).executeTakeFirstOrThrow();
  const photos = await db
    .selectFrom("listing_photos")
    .selectAll()
    .where("listingId", "=", listingId)
    .orderBy("position")
    .execute();
  return { listing, photos };
}

/** Calls the edit action as a browser would post the form. */
async function postEdit(
  db: DB,
  storage: PhotoStorage,
  id: number,
  fields: Record<string, string | string[] | Buffer[]>,
  options: { cookie?: string; origin?: string } = {},
) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v === "string") body.append(name, v);
      else body.append(name, new Blob([new Uint8Array(v)], { type: "image/jpeg" }), `${name}.jpg`);
    }
  }
  const headers = new Headers({ origin: options.origin ?? TEST_SITE });
  if (options.cookie) headers.set("cookie", options.cookie);
  const request = new Request(`${TEST_SITE}/dashboard/listings/${id}/edit`, { method: "POST", headers, body });
  try {
    const result = await editAction({
      request,
      params: { id: String(id) },
      context: testContext({ db, storage }),
    } as unknown as Parameters<typeof editAction>[0]);
    return { ...unwrapResult(result), location: result instanceof Response ? result.headers.get("location") : null };
  } catch (thrown) {
    return { ...unwrapResult(thrown), location: thrown instanceof Response ? thrown.headers.get("location") : null };
  }
}

describeEachDatabase("editing a listing", (ctx) => {
  it("the owner updates fields; slug, ad number, status, expiry and views stay, updatedAt moves", async () => {
    const { db } = ctx();
    const { storage } = await tempStorage();
    const { owner } = await signedInAccount(db, "edit-fields");
    const listing = await postedListing(db, storage, owner);
    const before = await snapshot(db, listing.id);
    await db
      .insertInto("listing_counters")
      .values({ listingId: listing.id, views: 7, uniqueViews: 5, lastViewed: null })
      .execute();
    const now = new Date("2026-11-10T09:30:00Z");
    const result = await updateOwnerListing(
      db,
      storage,
      owner,
      listing.id,
      {
        ...form,
        title: "Renamed annex",
        price: "21000",
        university: "University of Colombo",
        faculty: "Faculty of Medicine Colombo",
        amenities: ["WiFi", "AC"],
        advanceMonths: "2",
        deposit: "10000",
        coordinates: "6.79512, 79.90093",
      },
      { files: [] },
      now,
    );
    expect(result).toEqual({ ok: true, listing: { id: listing.id, slug: listing.slug }, held: false });
    const after = await snapshot(db, listing.id);
    expect(before.listing).toMatchObject({ advanceMonths: null, deposit: null });
    expect(after.listing).toMatchObject({
      title: "Renamed annex",
      price: 21000,
      advanceMonths: 2,
      deposit: 10000,
      // Kept exact for its owner; the public sees it rounded (listing.server.ts).
      latitude: 6.79512,
      longitude: 79.90093,
      city: "colombo-medical",
      amenities: JSON.stringify(["WiFi", "AC"]),
      slug: before.listing.slug,
      status: "active",
      expiresAt: before.listing.expiresAt,
      createdAt: before.listing.createdAt,
      updatedAt: now.toISOString(),
    });
    // Its views are kept (ADR 111: they live apart from the row an edit rewrites).
    expect(await viewCountsOf(db, listing.id)).toEqual({ views: 7, uniqueViews: 5 });
    expect(after.photos.map((p) => p.id)).toEqual(before.photos.map((p) => p.id));
  });

  it("shows the exact point only when the owner chooses to; the place distance counts from follows (ADR 052)", async () => {
    const { db } = ctx();
    const { storage } = await tempStorage();
    const { owner } = await signedInAccount(db, "edit-exact");
    const listing = await postedListing(db, storage, owner);
    const save = (extra: Record<string, string>) =>
      updateOwnerListing(
        db,
        storage,
        owner,
        listing.id,
        { ...form, coordinates: "6.79512, 79.90093", ...extra },
        {
          files: [],
        },
      );
    const publicView = async () => {
      const found = await findListingById(db, listing.id);
      const row = await db
        .selectFrom("listings")
        .select(["placeLatitude", "placeLongitude"])
        .where("id", "=", listing.id)
        .executeTakeFirstOrThrow();
      return { public: [found?.latitude, found?.longitude], place: [row.placeLatitude, row.placeLongitude] };
    };
    expect(await save({ exactPosition: "1" })).toMatchObject({ ok: true });
    expect(await publicView()).toEqual({ public: [6.79512, 79.90093], place: [6.79512, 79.90093] });
    const form2 = await findOwnerListingForm(db, owner.id, listing.id);
    expect(form2?.values.exactPosition).toBe("1");
    // Unticked, the box sends nothing: back to about 100 m.
    expect(await save({})).toMatchObject({ ok: true });
    expect(await publicView()).toEqual({ public: [6.795, 79.901], place: [6.795, 79.901] });
    expect((await findOwnerListingForm(db, owner.id, listing.id))?.values.exactPosition).toBe("");
    // Any other value is refused and changes nothing.
    expect(await save({ exactPosition: "yes" })).toMatchObject({ ok: false });
    expect(await publicView()).toEqual({ public: [6.795, 79.901], place: [6.795, 79.901] });
  });

  it("a listing hidden by a moderator stays hidden, an expired one stays expired", async () => {
    const { db } = ctx();
    const { storage } = await tempStorage();
    const { owner } = await signedInAccount(db, "edit-status");
    const hidden = await postedListing(db, storage, owner, 1);
    const expired = await postedListing(db, storage, owner, 1);
    await db
      .updateTable("listings")
      .set({ status: "hidden", hiddenReason: "spam" })
      .where("id", "=", hidden.id)
      .execute();
    await db
      .updateTable("listings")
      .set({ expiresAt: "2026-10-01T00:00:00.000Z" })
      .where("id", "=", expired.id)
      .execute();
    for (const id of [hidden.id, expired.id]) {
      expect((await updateOwnerListing(db, storage, owner, id, { ...form, title: "Changed" }, { files: [] })).ok).toBe(
        true,
      );
    }
    expect((await snapshot(db, hidden.id)).listing).toMatchObject({
      title: "Changed",
      status: "hidden",
      hiddenReason: "spam",
    });
    expect((await snapshot(db, expired.id)).listing).toMatchObject({
      title: "Changed",
      status: "active",
      expiresAt: "2026-10-01T00:00:00.000Z",
    });
  });

  it("removes chosen photos (files deleted after commit) and adds new files and uploads, 1 to 3 in all", async () => {
    const { db } = ctx();
    const { storage, files } = await tempStorage();
    const { owner } = await signedInAccount(db, "edit-photos");
    const listing = await postedListing(db, storage, owner, 2);
    const before = await snapshot(db, listing.id);
    const [first, second] = before.photos;
    const upload = await storePhoto(db, storage, {
      userId: owner.id,
      listingId: null,
      position: 0,
      alt: null,
      data: await jpeg(200),
    });
    if (!upload.ok) throw new Error(upload.code);

    const result = await updateOwnerListing(db, storage, owner, listing.id, form, {
      removePhotoIds: [first.id],
      uploadIds: [upload.photo.id],
      files: [await jpeg(240)],
    });
    expect(result.ok).toBe(true);
    const after = await snapshot(db, listing.id);
    expect(after.photos.map((p) => p.id).slice(0, 2)).toEqual([second.id, upload.photo.id]);
    expect(after.photos.map((p) => p.position)).toEqual([0, 1, 2]);
    const stored = await files();
    expect(stored.some((f) => f.startsWith(`${first.id}-`))).toBe(false);
    expect(stored.some((f) => f.startsWith(`${second.id}-`))).toBe(true);

    const none = await updateOwnerListing(db, storage, owner, listing.id, form, {
      removePhotoIds: after.photos.map((p) => p.id),
      files: [],
    });
    expect(none).toEqual({ ok: false, code: "photo.required", field: "photos" });
    const four = await updateOwnerListing(db, storage, owner, listing.id, form, { files: [await jpeg(10)] });
    expect(four).toEqual({ ok: false, code: "photo.too_many", field: "photos" });
    const fake = await updateOwnerListing(db, storage, owner, listing.id, form, {
      removePhotoIds: [second.id],
      files: [Buffer.from("only text")],
    });
    expect(fake).toEqual({ ok: false, code: "photo.invalid", field: "photos", values: { n: 1 } });
    expect(await snapshot(db, listing.id)).toEqual(after);
    expect(await files()).toEqual(stored);
  });

  it("the owner's edit through the form: saved, then back to My Ads with the banner", async () => {
    const { db } = ctx();
    const { storage } = await tempStorage();
    const { owner, cookie } = await signedInAccount(db, "edit-action");
    const listing = await postedListing(db, storage, owner);
    const loaded = await editLoader({
      request: new Request(`${TEST_SITE}/dashboard/listings/${listing.id}/edit`, { headers: { cookie } }),
      params: { id: String(listing.id) },
      context: testContext({ db, storage }),
    } as unknown as Parameters<typeof editLoader>[0]);
    expect(loaded.listing.values).toMatchObject({
      title: form.title,
      price: "18000",
      location: "Katubedda",
      mapLink: "",
      // Not stated when posted: the edit form offers 'Not stated' and an empty deposit, never a guess.
      advanceMonths: "",
      deposit: "",
      coordinates: "",
    });
    expect(loaded.listing.photos).toHaveLength(2);

    const answer = await postEdit(db, storage, listing.id, { ...form, title: "Saved through the form" }, { cookie });
    expect(answer).toMatchObject({ status: 302, location: "/dashboard?updated=1" });
    expect((await snapshot(db, listing.id)).listing.title).toBe("Saved through the form");
    const enhanced = await postEdit(
      db,
      storage,
      listing.id,
      { ...form, title: "Saved with JavaScript", enhanced: "1" },
      { cookie },
    );
    expect(enhanced).toMatchObject({ status: 200, body: { saved: true } });
    const refused = await postEdit(db, storage, listing.id, { ...form, title: "", attempt: "2" }, { cookie });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ attempt: 3, first: { key: "listingForm.errors.required" } });
    expect((await snapshot(db, listing.id)).listing.title).toBe("Saved with JavaScript");
  });

  it("an edit that asks for money before a viewing is saved and held, and the answer says so (ADR 082)", async () => {
    const { db } = ctx();
    const { storage } = await tempStorage();
    const { owner, cookie } = await signedInAccount(db, "edit-held");
    const listing = await postedListing(db, storage, owner);
    const description = "A quiet room. Pay the booking fee before viewing to hold it.";
    const answer = await postEdit(db, storage, listing.id, { ...form, description }, { cookie });
    expect(answer).toMatchObject({ status: 302, location: "/dashboard?updated=held" });
    expect((await snapshot(db, listing.id)).listing).toMatchObject({ description, status: "pending" });
    // Held already: the next save says so too, with JavaScript.
    const enhanced = await postEdit(db, storage, listing.id, { ...form, description, enhanced: "1" }, { cookie });
    expect(enhanced).toMatchObject({ status: 200, body: { saved: true, held: true } });
  });

  it("every tampering path answers 400, 403 or 404 and changes nothing", async () => {
    const { db } = ctx();
    const { storage, files } = await tempStorage();
    const { owner, cookie } = await signedInAccount(db, "edit-owner");
    const intruder = await signedInAccount(db, "edit-intruder");
    const listing = await postedListing(db, storage, owner);
    const theirs = await postedListing(db, storage, intruder.owner, 1);
    const theirUpload = await storePhoto(db, storage, {
      userId: intruder.owner.id,
      listingId: null,
      position: 0,
      alt: null,
      data: await jpeg(90),
    });
    if (!theirUpload.ok) throw new Error(theirUpload.code);
    const mine = await snapshot(db, listing.id);
    const other = await snapshot(db, theirs.id);
    const storedBefore = await files();
    const changed = { ...form, title: "Hijacked" };

    // Another owner: the listing does not exist for them (page and action).
    expect((await postEdit(db, storage, listing.id, changed, { cookie: intruder.cookie })).status).toBe(404);
    const page = await editLoader({
      request: new Request(`${TEST_SITE}/dashboard/listings/${listing.id}/edit`, {
        headers: { cookie: intruder.cookie },
      }),
      params: { id: String(listing.id) },
      context: testContext({ db, storage }),
    } as unknown as Parameters<typeof editLoader>[0]).catch((thrown: unknown) => unwrapResult(thrown));
    expect(page).toMatchObject({ status: 404 });
    // No session: sent to log in.
    const anonymous = await postEdit(db, storage, listing.id, changed);
    expect(anonymous).toMatchObject({
      status: 302,
      location: `/login?redirectTo=${encodeURIComponent(`/dashboard/listings/${listing.id}/edit`)}`,
    });
    // The owner, from another site.
    expect((await postEdit(db, storage, listing.id, changed, { cookie, origin: "https://evil.example" })).status).toBe(
      403,
    );
    // The owner removing another owner's photo, or claiming another owner's upload.
    expect(
      (await postEdit(db, storage, listing.id, { ...changed, removePhotos: [other.photos[0].id] }, { cookie })).status,
    ).toBe(400);
    expect(
      (await postEdit(db, storage, listing.id, { ...changed, uploadIds: [theirUpload.photo.id] }, { cookie })).status,
    ).toBe(400);
    expect(
      (await postEdit(db, storage, listing.id, { ...changed, uploadIds: [other.photos[0].id] }, { cookie })).status,
    ).toBe(400);
    // Not a number, or no such listing.
    expect((await postEdit(db, storage, 987654321, changed, { cookie })).status).toBe(404);

    expect(await snapshot(db, listing.id)).toEqual(mine);
    expect(await snapshot(db, theirs.id)).toEqual(other);
    const upload = await db
      .selectFrom("listing_photos")
      .select(["userId", "listingId"])
      .where("id", "=", theirUpload.photo.id)
      .executeTakeFirstOrThrow();
    expect(upload).toEqual({ userId: intruder.owner.id, listingId: null });
    expect(await files()).toEqual(storedBefore);
  });

  it("fields the browser cannot set are ignored", async () => {
    const { db } = ctx();
    const { storage } = await tempStorage();
    const { owner, cookie } = await signedInAccount(db, "edit-tamper");
    const intruder = await signedInAccount(db, "edit-tamper-other");
    const listing = await postedListing(db, storage, owner);
    const before = await snapshot(db, listing.id);
    const tampered = {
      ...form,
      title: "Only the title changes",
      id: "1",
      userId: intruder.owner.id,
      userEmail: intruder.owner.email,
      status: "active",
      views: "999",
      adNumber: "1",
      slug: "my-own-slug",
      expiresAt: "2099-01-01T00:00:00.000Z",
      createdAt: "2020-01-01",
      city: "jaffna",
      stateVersion: "0",
    };
    expect((await postEdit(db, storage, listing.id, tampered, { cookie })).status).toBe(302);
    const after = await snapshot(db, listing.id);
    expect(after.listing.title).toBe("Only the title changes");
    expect(after.listing.updatedAt > before.listing.updatedAt).toBe(true);
    // An edit is one more decision about the listing: emailed availability links from before stop working (ADR 063).
    expect(Number(after.listing.stateVersion)).toBe(Number(before.listing.stateVersion) + 1);
    // The trust checks ran again on the edit and found the photos in no other owner's ad (ADR 082).
    expect(after.listing.photosCheckedAt! > before.listing.photosCheckedAt!).toBe(true);
    // Everything else is as it was (PostgreSQL's search vector follows the new title).
    const unchanged = (row: typeof before.listing) => {
      const {
        title: _title,
        updatedAt: _updatedAt,
        stateVersion: _stateVersion,
        photosCheckedAt: _photosCheckedAt,
        searchVector: _searchVector,
        ...rest
      } = row as typeof row & { searchVector?: unknown };
      return rest;
    };
    expect(unchanged(after.listing)).toEqual(unchanged(before.listing));
    expect(after.photos).toEqual(before.photos);
  });
});
