import sharp from "sharp";
import { expect, it } from "vitest";
import { getAuth } from "../../app/auth/auth.server";
import type { DB } from "../../app/db/db.server";
import { createOwnerAccount } from "../../app/models/account.server";
import { insertListing } from "../../app/models/listing.server";
import { attachUploads, removeStaleUploads, uploadPhoto } from "../../app/models/photo-upload.server";
import { action as uploadAction } from "../../app/routes/dashboard.photos";
import { action as deleteAction } from "../../app/routes/dashboard.photos.$id.delete";
import { requestContext } from "../../app/services.server";
import type { PhotoStorage } from "../../app/storage/storage.server";
import { listingInput } from "../factories";
import { TEST_SITE, testContext } from "../request-context";
import { tempPhotoStorage } from "../temp-photo-storage";
import { describeEachDatabase } from "../test-db";

// Uploading photos before the listing exists (ADR 009): POST
// /dashboard/photos and POST /dashboard/photos/{id}/delete, called as the
// router calls them, with a real session and a real storage folder.

const jpeg = (width = 800, height = 600) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 140, b: 120 } } })
    .jpeg()
    .toBuffer();

let seq = 0;

/** A signed-in owner: their id, session cookie, and helpers to call both endpoints. */
async function owner(db: DB, storage: PhotoStorage, limiterFrom?: ReturnType<typeof testContext>) {
  const context = testContext({
    db,
    storage,
    ...(limiterFrom ? { limiter: limiterFrom.get(requestContext).limiter } : {}),
  });
  const email = `uploader${++seq}-${Date.now()}@example.lk`;
  const { id } = await createOwnerAccount(db, {
    name: "Uploader",
    email,
    phone: "0771234567",
    password: "Secret-pass1",
  });
  const { headers } = await getAuth(context.get(requestContext)).api.signInEmail({
    body: { email, password: "Secret-pass1" },
    headers: new Headers({ origin: TEST_SITE }),
    returnHeaders: true,
  });
  const cookie = headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

  async function upload(
    body: FormData | Buffer,
    init: { origin?: string; cookie?: string | null; contentType?: string } = {},
  ) {
    const headers: Record<string, string> = { origin: init.origin ?? TEST_SITE };
    if (init.cookie !== null) headers.cookie = init.cookie ?? cookie;
    if (init.contentType) headers["content-type"] = init.contentType;
    const request = new Request(`${TEST_SITE}/dashboard/photos`, {
      method: "POST",
      headers,
      body: body instanceof FormData ? body : new Uint8Array(body),
    });
    const response = (await uploadAction({ request, params: {}, context } as unknown as Parameters<
      typeof uploadAction
    >[0])) as Response;
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Record<string, unknown>,
    };
  }
  const uploadFile = (data: Buffer, name = "photo.jpg", type = "image/jpeg", init?: Parameters<typeof upload>[1]) => {
    const form = new FormData();
    form.append("photo", new File([new Uint8Array(data)], name, { type }));
    return upload(form, init);
  };
  async function remove(photoId: string, init: { origin?: string } = {}) {
    const request = new Request(`${TEST_SITE}/dashboard/photos/${photoId}/delete`, {
      method: "POST",
      headers: { origin: init.origin ?? TEST_SITE, cookie },
    });
    const response = (await deleteAction({ request, params: { id: photoId }, context } as unknown as Parameters<
      typeof deleteAction
    >[0])) as Response;
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  return { id, email, context, upload, uploadFile, remove };
}

/** A small real JPEG whose frame header claims side x side pixels: decoding it would need gigabytes. */
async function jpegBomb(side: number): Promise<Buffer> {
  const bomb = Buffer.from(await jpeg(64, 64));
  const frame = bomb.indexOf(Buffer.from([0xff, 0xc0]));
  bomb.writeUInt16BE(side, frame + 5);
  bomb.writeUInt16BE(side, frame + 7);
  return bomb;
}

describeEachDatabase("photo uploads", (ctx) => {
  it("stores a real photo unattached for its owner and answers its id, 400 px thumbnail and size", async () => {
    const { db } = ctx();
    const { storage, files } = tempPhotoStorage();
    const me = await owner(db, storage);
    const { status, body } = await me.uploadFile(await jpeg(1600, 1200));
    expect(status).toBe(201);
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: `/photos/${body.id}-400.webp`,
      width: 1200,
      height: 900,
    });
    const row = await db
      .selectFrom("listing_photos")
      .selectAll()
      .where("id", "=", body.id as string)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ userId: me.id, listingId: null });
    expect(files()).toEqual([`${body.id}-1200.webp`, `${body.id}-400.webp`, `${body.id}-800.webp`]);
    const thumb = await sharp((await storage.get(`${body.id}-400.webp`))!).metadata();
    expect([thumb.format, thumb.width, thumb.height]).toEqual(["webp", 400, 300]);
  });

  it("refuses a visitor without a session, and a post from another site, storing nothing", async () => {
    const { db } = ctx();
    const { storage, files } = tempPhotoStorage();
    const me = await owner(db, storage);
    const anonymous = await me.uploadFile(await jpeg(), "a.jpg", "image/jpeg", { cookie: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe("Please log in to upload photos.");
    const foreign = await me.uploadFile(await jpeg(), "a.jpg", "image/jpeg", { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(typeof foreign.body.error).toBe("string");
    expect(files()).toEqual([]);
    expect(await db.selectFrom("listing_photos").select("id").where("userId", "=", me.id).execute()).toEqual([]);
  });

  it("refuses a text file renamed .jpg, a 5000 px image and a pixel bomb with the spec's messages", async () => {
    const { db } = ctx();
    const { storage, files } = tempPhotoStorage();
    const me = await owner(db, storage);
    const text = await me.uploadFile(Buffer.from("just some text, not a photo\n"), "notes.jpg", "image/jpeg");
    expect(text).toMatchObject({ status: 422, body: { error: "Invalid image file" } });
    const wide = await me.uploadFile(
      await sharp({ create: { width: 5000, height: 100, channels: 3, background: "#888" } })
        .png()
        .toBuffer(),
      "wide.png",
      "image/png",
    );
    expect(wide).toMatchObject({ status: 422, body: { error: "Image dimensions too large" } });
    const bomb = await jpegBomb(60_000);
    expect(bomb.length).toBeLessThan(2_000);
    expect(await sharp(bomb, { limitInputPixels: false }).metadata()).toMatchObject({ width: 60_000, height: 60_000 });
    const started = performance.now();
    expect(await me.uploadFile(bomb, "bomb.jpg")).toMatchObject({
      status: 422,
      body: { error: "Image dimensions too large" },
    });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(files()).toEqual([]);
  });

  it("refuses a body of 6 MB and a file of 5MB before storing anything, and a request without exactly one file", async () => {
    const { db } = ctx();
    const { storage, files } = tempPhotoStorage();
    const me = await owner(db, storage);
    const big = await me.uploadFile(Buffer.alloc(6 * 1024 * 1024, 0xff), "big.jpg");
    expect(big).toMatchObject({ status: 413, body: { error: "Size must be less than 5MB" } });
    // Under the body cap, but a file of 5MB itself is still too big.
    expect(await me.uploadFile(Buffer.alloc(5 * 1024 * 1024, 0xff), "five.jpg")).toMatchObject({
      status: 413,
      body: { error: "Size must be less than 5MB" },
    });
    const twoFiles = new FormData();
    for (const name of ["a.jpg", "b.jpg"])
      twoFiles.append("photo", new File([new Uint8Array(await jpeg(100, 100))], name, { type: "image/jpeg" }));
    expect((await me.upload(twoFiles)).status).toBe(400);
    expect((await me.upload(new FormData())).status).toBe(400);
    expect((await me.upload(Buffer.from("not multipart"), { contentType: "text/plain" })).status).toBe(400);
    expect(files()).toEqual([]);
  });

  it("strips EXIF, GPS position included, from every stored file", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const me = await owner(db, storage);
    const withGps = await sharp({ create: { width: 1000, height: 800, channels: 3, background: "#4a7" } })
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
    expect((await sharp(withGps).metadata()).exif?.toString("latin1")).toContain("PhoneMaker");
    const { status, body } = await me.uploadFile(withGps);
    expect(status).toBe(201);
    for (const width of [400, 800, 1000]) {
      const stored = (await storage.get(`${body.id}-${width}.webp`))!;
      const meta = await sharp(stored).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(stored.toString("latin1")).not.toContain("PhoneMaker");
    }
  });

  it("allows 30 uploads per user per hour; the 31st gets 429 with Retry-After, other users are not affected", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const me = await owner(db, storage);
    const small = await jpeg(64, 48);
    for (let i = 0; i < 30; i++) expect((await me.uploadFile(small)).status).toBe(201);
    const refused = await me.uploadFile(small);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("Retry-After"))).toBeLessThanOrEqual(3600);
    expect(refused.body.error).toMatch(/^Too many photos uploaded\. Please try again in \d+ minutes?\.$/);
    const rows = await db.selectFrom("listing_photos").select("id").where("userId", "=", me.id).execute();
    expect(rows).toHaveLength(30);
    const other = await owner(db, storage, me.context);
    expect((await other.uploadFile(small)).status).toBe(201);
  });

  it("removes your own unattached upload with its files; another user's, an attached one, or a made-up id is 404 and stays", async () => {
    const { db } = ctx();
    const { storage, files } = tempPhotoStorage();
    const me = await owner(db, storage);
    const other = await owner(db, storage);
    const mine = (await me.uploadFile(await jpeg(500, 400))).body.id as string;
    const theirs = (await other.uploadFile(await jpeg(500, 400))).body.id as string;
    const attached = (await me.uploadFile(await jpeg(500, 400))).body.id as string;
    const listing = await insertListing(db, { id: me.id, email: me.email }, listingInput());
    expect(await attachUploads(db, me.id, listing.id, [attached], 0)).toBe(1);

    expect(await me.remove(theirs)).toEqual({ status: 404, body: { error: "Photo not found" } });
    expect((await me.remove(attached)).status).toBe(404);
    expect((await me.remove("not-a-photo")).status).toBe(404);
    expect((await me.remove(mine, { origin: "https://evil.example" })).status).toBe(403);
    expect(files().filter((f) => f.startsWith(theirs) || f.startsWith(attached) || f.startsWith(mine))).toHaveLength(6);

    expect(await me.remove(mine)).toEqual({ status: 200, body: { removed: true } });
    expect(files().some((f) => f.startsWith(mine))).toBe(false);
    expect(files().filter((f) => f.startsWith(theirs) || f.startsWith(attached))).toHaveLength(4);
    const left = await db
      .selectFrom("listing_photos")
      .select("id")
      .where("id", "in", [mine, theirs, attached])
      .execute();
    expect(left.map((r) => r.id).sort()).toEqual([theirs, attached].sort());
  });

  it("clean-up removes only unattached uploads older than a day, with their files", async () => {
    const { db } = ctx();
    const { storage, files } = tempPhotoStorage();
    const me = await owner(db, storage);
    const now = new Date("2026-11-22T12:00:00.000Z");
    const hoursAgo = (h: number) => new Date(now.getTime() - h * 3600_000);
    const data = await jpeg(300, 200);
    const store = async (at: Date) => {
      const result = await uploadPhoto(db, storage, me.id, data, at);
      if (!result.ok) throw new Error(result.code);
      return result.photo.id;
    };
    // Two stale uploads the job must remove.
    await store(hoursAgo(25));
    await store(hoursAgo(24 * 7));
    const fresh = await store(hoursAgo(23));
    const claimed = await store(hoursAgo(48));
    const listing = await insertListing(db, { id: me.id, email: me.email }, listingInput(), hoursAgo(47));
    await attachUploads(db, me.id, listing.id, [claimed], 0);

    expect(await removeStaleUploads(db, storage, now)).toBe(2);
    const ids = (await db.selectFrom("listing_photos").select("id").where("userId", "=", me.id).execute())
      .map((r) => r.id)
      .sort();
    expect(ids).toEqual([fresh, claimed].sort());
    expect(files()).toEqual([`${claimed}-300.webp`, `${fresh}-300.webp`].sort());
    expect(await removeStaleUploads(db, storage, now)).toBe(0);
  });
});
