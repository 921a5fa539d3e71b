import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { createDatabase } from "~/db/db.server";
import { migrateToLatest } from "~/db/migrate.server";
import { listingPlace } from "~/lib/geo/place";
import { createLocalPhotoStorage } from "~/storage/storage.server";
import { deleteListingPhotos, processPhoto, storePhoto } from "./photo.server";

function solidImage(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 110 } } });
}

describe("processPhoto", () => {
  it("makes WebP variants at 400, 800 and 1200 px wide, keeping the aspect ratio", async () => {
    const input = await solidImage(2000, 1500).jpeg().toBuffer();
    const result = await processPhoto(input);
    if (!result.ok) throw new Error(result.code);
    expect(result.variants.map((v) => [v.width, v.height])).toEqual([
      [400, 300],
      [800, 600],
      [1200, 900],
    ]);
    for (const variant of result.variants) {
      const meta = await sharp(variant.data).metadata();
      expect(meta.format).toBe("webp");
      expect(meta.width).toBe(variant.width);
      expect(variant.bytes).toBe(variant.data.length);
    }
  });

  it("never enlarges a small photo", async () => {
    const result = await processPhoto(await solidImage(640, 480).png().toBuffer());
    if (!result.ok) throw new Error(result.code);
    expect(result.variants.map((v) => v.width)).toEqual([400, 640]);
    const tiny = await processPhoto(await solidImage(300, 200).png().toBuffer());
    if (!tiny.ok) throw new Error(tiny.code);
    expect(tiny.variants.map((v) => v.width)).toEqual([300]);
  });

  it("strips EXIF, including GPS position, from the output", async () => {
    const input = await solidImage(1000, 800)
      .jpeg()
      .withExif({
        IFD0: { Make: "PhoneMaker", Model: "Phone 12" },
        IFD3: {
          GPSLatitudeRef: "N",
          GPSLatitude: "6/1 47/1 42/1",
          GPSLongitudeRef: "E",
          GPSLongitude: "79/1 54/1 3/1",
        },
      })
      .toBuffer();
    const before = await sharp(input).metadata();
    expect(before.exif?.toString("latin1")).toContain("PhoneMaker");
    const result = await processPhoto(input);
    if (!result.ok) throw new Error(result.code);
    for (const variant of result.variants) {
      const meta = await sharp(variant.data).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(variant.data.toString("latin1")).not.toContain("PhoneMaker");
    }
  });

  it("turns a photo upright using its EXIF orientation", async () => {
    // Orientation 6: stored landscape, meant to be shown rotated 90° (portrait).
    const input = await solidImage(1600, 1200).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const result = await processPhoto(input);
    if (!result.ok) throw new Error(result.code);
    const largest = result.variants[result.variants.length - 1];
    expect([largest.width, largest.height]).toEqual([1200, 1600]);
  });

  it("rejects a file that is not an image, whatever its name", async () => {
    expect(await processPhoto(Buffer.from("just some text, not a photo\n"))).toEqual({
      ok: false,
      code: "photo.invalid",
    });
    expect(await processPhoto(Buffer.alloc(0))).toEqual({ ok: false, code: "photo.invalid" });
  });

  it("rejects a truncated JPEG", async () => {
    const full = await solidImage(800, 600).jpeg().toBuffer();
    expect(await processPhoto(full.subarray(0, Math.floor(full.length / 2)))).toEqual({
      ok: false,
      code: "photo.invalid",
    });
  });

  it("rejects SVG documents", async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100"/></svg>',
    );
    expect(await processPhoto(svg)).toEqual({ ok: false, code: "photo.invalid" });
  });

  it("rejects an image with a side over 4000 px", async () => {
    const wide = await solidImage(5000, 100).png({ compressionLevel: 9 }).toBuffer();
    expect(await processPhoto(wide)).toEqual({ ok: false, code: "photo.dimensions_too_large" });
    const huge = await solidImage(5000, 5000).png({ compressionLevel: 9 }).toBuffer();
    expect(await processPhoto(huge)).toEqual({ ok: false, code: "photo.dimensions_too_large" });
  });

  it("refuses a decompression bomb from its header, without decoding it", async () => {
    // A few hundred bytes declaring 60,000 x 60,000 pixels (3.6 gigapixels).
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(zlib.crc32(body));
      return Buffer.concat([length, body, crc]);
    };
    const header = Buffer.alloc(13);
    header.writeUInt32BE(60_000, 0);
    header.writeUInt32BE(60_000, 4);
    header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
    const bomb = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk("IHDR", header),
      chunk("IDAT", zlib.deflateSync(Buffer.alloc(60_001))),
      chunk("IEND", Buffer.alloc(0)),
    ]);
    expect(bomb.length).toBeLessThan(1_000);
    const started = performance.now();
    expect(await processPhoto(bomb)).toEqual({ ok: false, code: "photo.dimensions_too_large" });
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe("storePhoto and deleteListingPhotos", async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "bodima-photos-"));
  const storage = createLocalPhotoStorage(dir);
  const handle = createDatabase({ databaseUrl: "sqlite::memory:", dataDir: "" });
  await migrateToLatest(handle.db);
  const { db } = handle;
  const now = new Date().toISOString();
  await db
    .insertInto("users")
    .values({
      id: "u1",
      name: "A",
      email: "a@example.com",
      emailVerified: 1,
      image: null,
      phone: "0771234567",
      role: "owner",
      status: "active",
      createdAt: now,
      updatedAt: now,
    })
    .execute();

  afterAll(async () => {
    await handle.destroy();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("stores each variant under the photo's id and records the photo", async () => {
    const result = await storePhoto(db, storage, {
      userId: "u1",
      listingId: null,
      position: 0,
      alt: "Room – photo 1",
      data: await solidImage(1000, 750).jpeg().toBuffer(),
    });
    if (!result.ok) throw new Error(result.code);
    const { photo } = result;
    expect(photo.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(photo.variants.map((v) => v.key)).toEqual([
      `${photo.id}-400.webp`,
      `${photo.id}-800.webp`,
      `${photo.id}-1000.webp`,
    ]);
    expect([photo.width, photo.height]).toEqual([1000, 750]);
    const row = await db.selectFrom("listing_photos").selectAll().where("id", "=", photo.id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.variants)).toEqual(photo.variants);
    expect(row.bytes).toBe(photo.variants[2].bytes);
    for (const v of photo.variants) expect((await storage.get(v.key))?.length).toBe(v.bytes);
  });

  it("returns the error and stores nothing for a bad file", async () => {
    const before = await fs.readdir(dir);
    const result = await storePhoto(db, storage, {
      userId: "u1",
      listingId: null,
      position: 0,
      alt: null,
      data: Buffer.from("nope"),
    });
    expect(result).toEqual({ ok: false, code: "photo.invalid" });
    expect(await fs.readdir(dir)).toEqual(before);
  });

  it("deletes a listing's photo rows and the files they own, and no others", async () => {
    const { id: listingId } = await db
      .insertInto("listings")
      .values({
        slug: "room-1001",
        title: "Room",
        description: "d",
        price: 10000,
        keymoneyFee: null,
        location: null,
        university: "University of Moratuwa",
        faculty: "Main Campus",
        city: "moratuwa",
        ...listingPlace({ latitude: null, longitude: null, city: "moratuwa" }),
        propertyType: "single",
        gender: "any",
        amenities: "[]",
        userId: "u1",
        userEmail: "a@example.com",
        contactName: "A",
        contactPhone: "0771234567",
        status: "active",
        expiresAt: now,
        hiddenReason: null,
        createdAt: now,
        updatedAt: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const data = await solidImage(500, 400).jpeg().toBuffer();
    const first = await storePhoto(db, storage, { userId: "u1", listingId, position: 0, alt: null, data });
    const other = await storePhoto(db, storage, { userId: "u1", listingId: null, position: 0, alt: null, data });
    if (!first.ok || !other.ok) throw new Error("store failed");
    // A row that points at another photo's files (as synthetic seed rows do).
    await db
      .insertInto("listing_photos")
      .values({
        id: crypto.randomUUID(),
        listingId,
        userId: "u1",
        position: 1,
        width: 1,
        height: 1,
        bytes: 1,
        variants: JSON.stringify(other.photo.variants),
        alt: null,
        createdAt: now,
      })
      .execute();

    expect(await deleteListingPhotos(db, storage, listingId)).toBe(2);
    expect(await db.selectFrom("listing_photos").select("id").where("listingId", "=", listingId).execute()).toEqual([]);
    for (const v of first.photo.variants) expect(await storage.get(v.key)).toBeNull();
    for (const v of other.photo.variants) expect(await storage.get(v.key)).not.toBeNull();
    expect(await deleteListingPhotos(db, storage, listingId)).toBe(0);
  });
});
