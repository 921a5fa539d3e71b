import sharp from "sharp";
import { expect, it } from "vitest";
import { createOwnerListing, type ListingOwner } from "../../app/models/owner-listings.server";
import { storePhoto } from "../../app/models/photo.server";
import { viewCountsOf } from "../../app/models/view-tracking.server";
import type { RawListingForm } from "../../app/schemas/listing-form";
import type { PhotoStorage } from "../../app/storage/storage.server";
import { insertTestOwner } from "../factories";
import { LISTING_FORM } from "../owner-fixtures";
import { tempPhotoStorage } from "../temp-photo-storage";
import { describeEachDatabase } from "../test-db";

const form: RawListingForm = { ...LISTING_FORM, amenities: ["WiFi", "Kitchen"] };

const jpeg = (width = 800, height = 600) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 140, b: 120 } } })
    .jpeg()
    .toBuffer();

let ownerSeq = 0;
async function newOwner(db: Parameters<typeof insertTestOwner>[0]): Promise<ListingOwner> {
  const { id, email, phone } = await insertTestOwner(db, `create-owner-${++ownerSeq}-${Date.now()}`, {
    name: "Kamala Perera",
  });
  return { id, email, name: "Kamala Perera", phone };
}

describeEachDatabase("createOwnerListing", (ctx) => {
  it("creates a listing with its photos, contact details from the profile and the city from the directory", async () => {
    const { db } = ctx();
    const { storage, files } = tempPhotoStorage();
    const owner = await newOwner(db);
    const result = await createOwnerListing(
      db,
      storage,
      owner,
      { ...form, university: "University of Colombo", faculty: "Faculty of Medicine Colombo" },
      { files: [await jpeg(), await jpeg(600, 800)] },
    );
    if (!result.ok) throw new Error(result.code);
    const row = await db
      .selectFrom("listings")
      .selectAll()
      .where("id", "=", result.listing.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      userId: owner.id,
      userEmail: owner.email,
      status: "active",
      contactName: "Kamala Perera",
      contactPhone: owner.phone,
      price: 18000,
      keymoneyFee: 20000,
      city: "colombo-medical",
      faculty: "Faculty of Medicine Colombo",
    });
    expect(row.slug).toBe(result.listing.slug);
    const photos = await db
      .selectFrom("listing_photos")
      .select(["position", "userId"])
      .where("listingId", "=", result.listing.id)
      .orderBy("position")
      .execute();
    expect(photos.map((p) => p.position)).toEqual([0, 1]);
    expect(files().length).toBeGreaterThanOrEqual(4);
  });

  it("keeps at most 3 listings per owner when 20 posts arrive at once", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const owner = await newOwner(db);
    const photo = await jpeg(200, 150);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        createOwnerListing(db, storage, owner, { ...form, title: `Room ${i}` }, { files: [photo] }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    const refused = results.filter((r) => !r.ok);
    expect(refused).toHaveLength(17);
    for (const r of refused) expect(r).toEqual({ ok: false, code: "listing.limit_reached", field: "photos" });
    const count = await db
      .selectFrom("listings")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("userId", "=", owner.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(3);
  });

  it("ignores fields the browser cannot set", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const owner = await newOwner(db);
    const tampered = {
      ...form,
      userId: "someone-else",
      userEmail: "x@example.com",
      status: "hidden",
      views: "999",
      slug: "my-slug",
      adNumber: "1",
      expiresAt: "2099-01-01",
      city: "jaffna",
      id: "1",
    } as RawListingForm;
    const result = await createOwnerListing(db, storage, owner, tampered, { files: [await jpeg()] });
    if (!result.ok) throw new Error(result.code);
    const row = await db
      .selectFrom("listings")
      .selectAll()
      .where("id", "=", result.listing.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      userId: owner.id,
      userEmail: owner.email,
      status: "active",
      city: "moratuwa",
    });
    expect(await viewCountsOf(db, result.listing.id)).toEqual({ views: 0, uniqueViews: 0 });
    expect(row.slug).not.toBe("my-slug");
    expect(row.expiresAt.startsWith("2099")).toBe(false);
  });

  it("needs 1 to 3 real images of at most 4000 px", async () => {
    const { db } = ctx();
    const { storage, files } = tempPhotoStorage();
    const owner = await newOwner(db);
    const none = await createOwnerListing(db, storage, owner, form, { files: [] });
    expect(none).toEqual({ ok: false, code: "photo.required", field: "photos" });
    const photo = await jpeg(100, 100);
    const four = await createOwnerListing(db, storage, owner, form, { files: [photo, photo, photo, photo] });
    expect(four).toEqual({ ok: false, code: "photo.too_many", field: "photos" });
    const text = await createOwnerListing(db, storage, owner, form, {
      files: [photo, Buffer.from("not really a jpeg, just text")],
    });
    expect(text).toEqual({ ok: false, code: "photo.invalid", field: "photos", values: { n: 2 } });
    const huge = await createOwnerListing(db, storage, owner, form, { files: [await jpeg(5000, 100)] });
    expect(huge).toEqual({ ok: false, code: "photo.dimensions_too_large", field: "photos", values: { n: 1 } });
    expect(files()).toEqual([]);
    const rows = await db.selectFrom("listings").select("id").where("userId", "=", owner.id).execute();
    expect(rows).toEqual([]);
  });

  it("strips EXIF GPS from stored photos", async () => {
    const { db } = ctx();
    const { storage, files } = tempPhotoStorage();
    const owner = await newOwner(db);
    const withGps = await sharp({ create: { width: 900, height: 700, channels: 3, background: { r: 1, g: 2, b: 3 } } })
      .jpeg()
      .withExif({
        IFD0: { Make: "PhoneMaker" },
        IFD3: {
          GPSLatitudeRef: "N",
          GPSLatitude: "6/1 47/1 42/1",
          GPSLongitudeRef: "E",
          GPSLongitude: "79/1 54/1 3/1",
        },
      })
      .toBuffer();
    const result = await createOwnerListing(db, storage, owner, form, { files: [withGps] });
    expect(result.ok).toBe(true);
    expect(files().length).toBeGreaterThan(0);
    for (const key of files()) {
      const data = (await storage.get(key))!;
      expect((await sharp(data).metadata()).exif).toBeUndefined();
      expect(data.toString("latin1")).not.toContain("PhoneMaker");
    }
  });

  it("removes stored photo files when the transaction fails", async () => {
    const { db } = ctx();
    const { storage, files } = tempPhotoStorage();
    const owner = await newOwner(db);
    let puts = 0;
    const failing: PhotoStorage = {
      ...storage,
      async put(key, data) {
        // The second photo's files fail to write, after the first photo is stored.
        if (++puts > 3) throw new Error("disk full");
        await storage.put(key, data);
      },
    };
    const photo = await jpeg(1600, 1200);
    await expect(createOwnerListing(db, failing, owner, form, { files: [photo, photo] })).rejects.toThrow("disk full");
    expect(files()).toEqual([]);
    const rows = await db.selectFrom("listings").select("id").where("userId", "=", owner.id).execute();
    expect(rows).toEqual([]);
  });

  it("claims the owner's own browser uploads; another owner's upload is refused and nothing is created", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const owner = await newOwner(db);
    const other = await newOwner(db);
    const upload = async (userId: string) => {
      const stored = await storePhoto(db, storage, {
        userId,
        listingId: null,
        position: 0,
        alt: null,
        data: await jpeg(300, 200),
      });
      if (!stored.ok) throw new Error(stored.code);
      return stored.photo.id;
    };
    const mine = await upload(owner.id);
    const theirs = await upload(other.id);

    const refused = await createOwnerListing(db, storage, owner, form, { files: [], uploadIds: [mine, theirs] });
    expect(refused).toEqual({ ok: false, code: "photo.gone", field: "photos" });
    const tooMany = await createOwnerListing(db, storage, owner, form, {
      files: [await jpeg(), await jpeg(), await jpeg()],
      uploadIds: [mine],
    });
    expect(tooMany).toEqual({ ok: false, code: "photo.too_many", field: "photos" });
    expect(await db.selectFrom("listings").select("id").where("userId", "=", owner.id).execute()).toEqual([]);
    const unclaimed = await db
      .selectFrom("listing_photos")
      .select(["id", "userId", "listingId"])
      .where("id", "in", [mine, theirs])
      .orderBy("userId")
      .execute();
    expect(unclaimed.every((p) => p.listingId === null)).toBe(true);

    const result = await createOwnerListing(db, storage, owner, form, {
      files: [await jpeg()],
      uploadIds: [mine, mine],
    });
    if (!result.ok) throw new Error(result.code);
    const photos = await db
      .selectFrom("listing_photos")
      .select(["id", "position"])
      .where("listingId", "=", result.listing.id)
      .orderBy("position")
      .execute();
    expect(photos).toHaveLength(2);
    expect(photos[0]).toEqual({ id: mine, position: 0 });
    const theirsAfter = await db
      .selectFrom("listing_photos")
      .select(["userId", "listingId"])
      .where("id", "=", theirs)
      .executeTakeFirstOrThrow();
    expect(theirsAfter).toEqual({ userId: other.id, listingId: null });
  });
});
