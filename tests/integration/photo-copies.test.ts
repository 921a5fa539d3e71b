import sharp from "sharp";
import { beforeAll, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { createOwnerListing, deleteOwnerListing, updateOwnerListing } from "../../app/models/owner-listings.server";
import { processPhoto, storeProcessedPhoto } from "../../app/models/photo.server";
import {
  COPY_MEMORY_DAYS,
  findCopiedPhotos,
  fingerprintStoredPhotos,
  listingFingerprints,
} from "../../app/models/photo-copies.server";
import { fingerprintImage, type PhotoFingerprint } from "../../app/models/photo-fingerprint.server";
import { uploadPhoto } from "../../app/models/photo-upload.server";
import { insertListingOwner } from "../factories";
import { LISTING_FORM } from "../owner-fixtures";
import { EDITS, type LabelledPhoto, originalPhotos } from "../photo-fixtures";
import { tempPhotoStorage } from "../temp-photo-storage";
import { describeEachDatabase } from "../test-db";

// Copied photos (ADR 074): fingerprints written where photos are stored, and
// findCopiedPhotos finding them among other owners' listings only.

const DAY_MS = 24 * 60 * 60 * 1000;
let photos: LabelledPhoto[];
beforeAll(async () => {
  // Each test posts photos of its own: the suites share one database.
  photos = await originalPhotos(11, 9001);
});

const newOwner = (db: DB) => insertListingOwner(db, "copies-owner", "Nimal Perera");

/** A copier's version of a photo: made half the size and saved again as a JPEG, as the upload pipeline would fingerprint it. */
async function copyOf(photo: Buffer, edit = "half size"): Promise<PhotoFingerprint> {
  const edited = await EDITS.find((e) => e.name === edit)!.apply(photo);
  const processed = await processPhoto(await sharp(edited).jpeg({ quality: 70 }).toBuffer());
  if (!processed.ok || !processed.fingerprint) throw new Error("not processed");
  return processed.fingerprint;
}

describeEachDatabase("findCopiedPhotos", (ctx) => {
  it("finds another owner's photo, edited or mirrored, with their listing; never the owner's own", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const original = await newOwner(db);
    const posted = await createOwnerListing(db, storage, original, LISTING_FORM, {
      files: [photos[0].data, photos[1].data],
    });
    if (!posted.ok) throw new Error(posted.code);
    const [first] = await db
      .selectFrom("listing_photos")
      .select("id")
      .where("listingId", "=", posted.listing.id)
      .orderBy("position")
      .execute();

    const copier = await newOwner(db);
    const copy = await copyOf(photos[0].data);
    const mirrored = await copyOf(photos[0].data, "mirrored");
    const unrelated = await copyOf(photos[2].data);
    const found = await findCopiedPhotos(db, copier.id, [unrelated, copy, mirrored]);
    expect([...found].sort((a, b) => a.photo - b.photo)).toEqual([
      expect.objectContaining({
        photo: 1,
        photoId: first.id,
        listingId: posted.listing.id,
        ownerId: original.id,
        exact: false,
      }),
      expect.objectContaining({ photo: 2, photoId: first.id, listingId: posted.listing.id, ownerId: original.id }),
    ]);
    expect(found.every((f) => f.distance <= 10 && f.removedAt === null)).toBe(true);

    // The same pixels: distance 0, exact.
    const stored = await listingFingerprints(db, posted.listing.id);
    expect(stored).toHaveLength(2);
    const same = await findCopiedPhotos(db, copier.id, stored);
    expect(same.filter((f) => f.distance === 0 && f.exact)).toHaveLength(2);

    // An owner reusing their own photos is fine.
    expect(await findCopiedPhotos(db, original.id, [copy, mirrored, ...stored])).toEqual([]);
  });

  it("counts a hidden listing, and a deleted one or a replaced photo for 180 days", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const original = await newOwner(db);
    const copier = await newOwner(db);
    const now = new Date();
    const posted = await createOwnerListing(
      db,
      storage,
      original,
      LISTING_FORM,
      { files: [photos[3].data, photos[4].data] },
      now,
    );
    if (!posted.ok) throw new Error(posted.code);
    const copies = [await copyOf(photos[3].data), await copyOf(photos[4].data)];
    const listingsFound = async (at: Date) =>
      (await findCopiedPhotos(db, copier.id, copies, at)).map((f) => f.photo).sort();

    await db.updateTable("listings").set({ status: "hidden" }).where("id", "=", posted.listing.id).execute();
    expect(await listingsFound(now)).toEqual([0, 1]);

    // The owner replaces the second photo: the replaced one still counts, then no longer.
    const [, second] = await db
      .selectFrom("listing_photos")
      .select("id")
      .where("listingId", "=", posted.listing.id)
      .orderBy("position")
      .execute();
    const edited = await updateOwnerListing(
      db,
      storage,
      original,
      posted.listing.id,
      LISTING_FORM,
      { files: [photos[5].data], removePhotoIds: [second.id] },
      now,
    );
    expect(edited.ok).toBe(true);
    const replaced = await findCopiedPhotos(db, copier.id, [copies[1]], now);
    expect(replaced).toEqual([expect.objectContaining({ photoId: second.id, removedAt: now.toISOString() })]);

    const deleted = await deleteOwnerListing(db, storage, original.id, posted.listing.id, now);
    expect(deleted.ok).toBe(true);
    expect(await listingsFound(now)).toEqual([0, 1]);
    expect(await listingsFound(new Date(now.getTime() + (COPY_MEMORY_DAYS - 1) * DAY_MS))).toEqual([0, 1]);
    expect(await listingsFound(new Date(now.getTime() + (COPY_MEMORY_DAYS + 1) * DAY_MS))).toEqual([]);
  });

  it("counts an upload only once a listing claims it, and never a seeded photo", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const original = await newOwner(db);
    const copier = await newOwner(db);
    const copy = await copyOf(photos[6].data);

    const uploaded = await uploadPhoto(db, storage, original.id, photos[6].data);
    if (!uploaded.ok) throw new Error(uploaded.code);
    expect(await findCopiedPhotos(db, copier.id, [copy])).toEqual([]);
    const posted = await createOwnerListing(db, storage, original, LISTING_FORM, {
      files: [],
      uploadIds: [uploaded.photo.id],
    });
    if (!posted.ok) throw new Error(posted.code);
    expect(await findCopiedPhotos(db, copier.id, [copy])).toEqual([
      expect.objectContaining({ photoId: uploaded.photo.id, listingId: posted.listing.id }),
    ]);

    const seededOwner = await newOwner(db);
    const processed = await processPhoto(photos[7].data);
    if (!processed.ok) throw new Error(processed.code);
    const demo = await createOwnerListing(db, storage, seededOwner, LISTING_FORM, { files: [photos[8].data] });
    if (!demo.ok) throw new Error(demo.code);
    await storeProcessedPhoto(db, storage, {
      userId: seededOwner.id,
      listingId: demo.listing.id,
      position: 1,
      alt: null,
      ...processed,
      seeded: true,
    });
    expect(await findCopiedPhotos(db, copier.id, [await copyOf(photos[7].data)])).toEqual([]);
  });

  it("fingerprints stored photos that have none, from their files (npm run job -- photo-fingerprints)", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const owner = await newOwner(db);
    const demoOwner = await newOwner(db);
    const copier = await newOwner(db);
    const listing = await createOwnerListing(db, storage, owner, LISTING_FORM, { files: [photos[9].data] });
    const demoListing = await createOwnerListing(db, storage, demoOwner, LISTING_FORM, { files: [photos[9].data] });
    if (!listing.ok || !demoListing.ok) throw new Error("not posted");
    // As before migration 032: photos without fingerprints.
    await db
      .deleteFrom("photo_fingerprints")
      .where("listingId", "in", [listing.listing.id, demoListing.listing.id])
      .execute();
    expect(await findCopiedPhotos(db, copier.id, [await copyOf(photos[9].data)])).toEqual([]);

    const counts = await fingerprintStoredPhotos(db, storage, { seededUserIds: new Set([demoOwner.id]) });
    expect(counts).toEqual({ fingerprinted: 2, unreadable: 0 });
    expect(await findCopiedPhotos(db, copier.id, [await copyOf(photos[9].data)])).toEqual([
      expect.objectContaining({ listingId: listing.listing.id, ownerId: owner.id }),
    ]);
    expect(await fingerprintStoredPhotos(db, storage)).toEqual({ fingerprinted: 0, unreadable: 0 });
  });
});

it("a photo fingerprinted from its stored file gets the fingerprint the upload got", async () => {
  const processed = await processPhoto(photos[0].data);
  if (!processed.ok) throw new Error(processed.code);
  const largest = processed.variants[processed.variants.length - 1];
  expect(await fingerprintImage(largest.data)).toEqual(processed.fingerprint);
});
