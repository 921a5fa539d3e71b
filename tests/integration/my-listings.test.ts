import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, expect, it } from "vitest";
import { insertListing } from "../../app/models/listing.server";
import { renewOwnerListing } from "../../app/models/listing-availability.server";
import { listOwnerListings } from "../../app/models/owner-listing-reads.server";
import { deleteOwnerListing } from "../../app/models/owner-listings.server";
import { storePhoto } from "../../app/models/photo.server";
import { createLocalPhotoStorage } from "../../app/storage/storage.server";
import { insertTestOwner, listingInput } from "../factories";
import { describeEachDatabase } from "../test-db";

const DAY_MS = 24 * 60 * 60 * 1000;
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

async function tempStorage() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "bodima-my-listings-"));
  dirs.push(dir);
  return { dir, storage: createLocalPhotoStorage(dir) };
}

function uid(tag: string) {
  return `${tag}-${crypto.randomUUID()}`;
}

describeEachDatabase("my listings", (ctx) => {
  it("lists only the owner's listings, newest first, with days left and expired status", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, uid("own"));
    const other = await insertTestOwner(db, uid("other"));
    const start = new Date("2026-10-01T08:00:00Z");
    const old = await insertListing(db, owner, listingInput({ title: "Old room" }), start);
    const recent = await insertListing(
      db,
      owner,
      listingInput({ title: "Recent room" }),
      new Date(start.getTime() + 20 * DAY_MS),
    );
    await insertListing(db, other, listingInput({ title: "Not mine" }), new Date(start.getTime() + 25 * DAY_MS));

    const now = new Date(start.getTime() + 31 * DAY_MS);
    const mine = await listOwnerListings(db, owner.id, now);
    expect(mine.map((l) => l.title)).toEqual(["Recent room", "Old room"]);
    expect(mine[0]).toMatchObject({ id: recent.id, slug: recent.slug, status: "active", daysLeft: 19, views: 0 });
    // 'active' in the row, but past its expiry: the owner sees it as expired.
    expect(mine[1]).toMatchObject({ id: old.id, status: "expired", daysLeft: 0 });

    const partDay = await listOwnerListings(db, owner.id, new Date(start.getTime() + 20 * DAY_MS + 60_000));
    expect(partDay[0].daysLeft).toBe(30);
  });

  it("deletes the owner's listing with its photo rows and files; another user changes nothing", async () => {
    const { db } = ctx();
    const { dir, storage } = await tempStorage();
    const owner = await insertTestOwner(db, uid("del"));
    const intruder = await insertTestOwner(db, uid("intruder"));
    const listing = await insertListing(db, owner, listingInput({ title: "To delete" }));
    const image = await sharp({ create: { width: 500, height: 400, channels: 3, background: { r: 10, g: 90, b: 80 } } })
      .jpeg()
      .toBuffer();
    const stored = await storePhoto(db, storage, {
      userId: owner.id,
      listingId: listing.id,
      position: 0,
      alt: null,
      data: image,
    });
    if (!stored.ok) throw new Error(stored.code);
    const files = await fs.readdir(dir);
    expect(files.length).toBeGreaterThan(0);

    expect(await deleteOwnerListing(db, storage, intruder.id, listing.id)).toEqual({
      ok: false,
      code: "listing.not_found",
    });
    expect(await db.selectFrom("listings").select("id").where("id", "=", listing.id).executeTakeFirst()).toBeDefined();
    expect(
      await db.selectFrom("listing_photos").select("id").where("listingId", "=", listing.id).execute(),
    ).toHaveLength(1);
    expect(await fs.readdir(dir)).toEqual(files);

    expect(await deleteOwnerListing(db, storage, owner.id, listing.id)).toEqual({ ok: true });
    expect(
      await db.selectFrom("listings").select("id").where("id", "=", listing.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await db.selectFrom("listing_photos").select("id").where("listingId", "=", listing.id).execute(),
    ).toHaveLength(0);
    expect(await fs.readdir(dir)).toEqual([]);

    expect(await deleteOwnerListing(db, storage, owner.id, listing.id)).toEqual({
      ok: false,
      code: "listing.not_found",
    });
  });

  it("renews the owner's expired listing for 30 days from now; another user changes nothing", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, uid("renew"));
    const intruder = await insertTestOwner(db, uid("intruder"));
    const start = new Date("2026-09-01T08:00:00Z");
    const listing = await insertListing(db, owner, listingInput(), start);
    await db.updateTable("listings").set({ status: "expired" }).where("id", "=", listing.id).execute();
    const before = await db.selectFrom("listings").selectAll().where("id", "=", listing.id).executeTakeFirstOrThrow();

    const now = new Date("2026-11-22T10:00:00Z");
    expect(await renewOwnerListing(db, intruder.id, listing.id, now)).toEqual({ ok: false, code: "listing.not_found" });
    expect(await db.selectFrom("listings").selectAll().where("id", "=", listing.id).executeTakeFirstOrThrow()).toEqual(
      before,
    );

    const result = await renewOwnerListing(db, owner.id, listing.id, now);
    expect(result).toEqual({
      ok: true,
      expiresAt: new Date(now.getTime() + 30 * DAY_MS).toISOString(),
      title: before.title,
    });
    const after = await db.selectFrom("listings").selectAll().where("id", "=", listing.id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({
      status: "active",
      updatedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 30 * DAY_MS).toISOString(),
    });
    const [mine] = await listOwnerListings(db, owner.id, now);
    expect(mine).toMatchObject({ status: "active", daysLeft: 30 });
  });

  it("refuses to renew a listing hidden by a moderator", async () => {
    const { db } = ctx();
    const owner = await insertTestOwner(db, uid("hidden"));
    const listing = await insertListing(db, owner, listingInput(), new Date("2026-09-01T08:00:00Z"));
    await db
      .updateTable("listings")
      .set({ status: "hidden", hiddenReason: "spam" })
      .where("id", "=", listing.id)
      .execute();
    const before = await db.selectFrom("listings").selectAll().where("id", "=", listing.id).executeTakeFirstOrThrow();

    expect(await renewOwnerListing(db, owner.id, listing.id, new Date("2026-11-22T10:00:00Z"))).toEqual({
      ok: false,
      code: "listing.hidden",
    });
    expect(await db.selectFrom("listings").selectAll().where("id", "=", listing.id).executeTakeFirstOrThrow()).toEqual(
      before,
    );
  });
});
