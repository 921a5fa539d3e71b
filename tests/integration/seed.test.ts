import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { verify } from "@node-rs/argon2";
import { afterAll, beforeAll, expect, it } from "vitest";
import { UNIVERSITIES } from "../../app/directory/universities";
import { slugify } from "../../app/lib/slug";
import { findSimilarDescriptions } from "../../app/models/description-copies.server";
import { countPublicListings } from "../../app/models/listing.server";
import { searchListings } from "../../app/models/listing-search.server";
import type { PhotoVariant } from "../../app/models/listing-summary.server";
import { findCopiedPhotos } from "../../app/models/photo-copies.server";
import { checkListing } from "../../app/models/trust-checks.server";
import { GENDERS, PROPERTY_TYPES } from "../../app/schemas/browse-filters";
import { DEMO_OWNERS, DEMO_PASSWORD, seedDemo } from "../../app/seed/demo.server";
import { createLocalPhotoStorage, type PhotoStorage } from "../../app/storage/storage.server";
import { describeEachDatabase, freshDatabase } from "../test-db";

const DAY_MS = 24 * 60 * 60 * 1000;

describeEachDatabase("demo seed", (ctx) => {
  let dir: string;
  let storage: PhotoStorage;
  let added: number;
  const now = new Date();

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "bodima-seed-"));
    storage = createLocalPhotoStorage(dir);
    const started = performance.now();
    added = await seedDemo(ctx().db, storage, now);
    console.log(`demo seed [${ctx().dialect}]: ${added} listings in ${Math.round(performance.now() - started)} ms`);
  });

  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("adds about 80 public listings, none expired", async () => {
    const { db } = ctx();
    expect(added).toBe(80);
    expect(await countPublicListings(db, now)).toBe(80);
    const rows = await db.selectFrom("listings").select(["createdAt", "expiresAt", "status"]).execute();
    for (const row of rows) {
      expect(row.status).toBe("active");
      const age = now.getTime() - new Date(row.createdAt).getTime();
      expect(age).toBeGreaterThan(0);
      expect(age).toBeLessThanOrEqual(25 * DAY_MS);
      expect(new Date(row.expiresAt).getTime()).toBe(new Date(row.createdAt).getTime() + 30 * DAY_MS);
    }
  });

  it("covers every university, property type and gender", async () => {
    const { db } = ctx();
    const rows = await db
      .selectFrom("listings")
      .select(["university", "faculty", "city", "propertyType", "gender"])
      .execute();
    expect(new Set(rows.map((r) => r.university))).toEqual(new Set(UNIVERSITIES.map((u) => u.name)));
    expect(new Set(rows.map((r) => r.propertyType))).toEqual(new Set(PROPERTY_TYPES));
    expect(new Set(rows.map((r) => r.gender))).toEqual(new Set(GENDERS));
    expect(rows.some((r) => r.university === "University of Moratuwa" && r.propertyType === "single")).toBe(true);
    expect(rows.filter((r) => r.faculty !== "Main Campus").length).toBeGreaterThan(0);
    for (const row of rows) {
      const university = UNIVERSITIES.find((u) => u.name === row.university)!;
      const faculty = university.faculties.find((f) => f.name === row.faculty);
      expect(faculty, `${row.university} / ${row.faculty}`).toBeDefined();
      expect(row.city).toBe(faculty!.cityCode);
    }
  });

  it("writes plausible prices, texts, slugs, amenities and locations", async () => {
    const { db } = ctx();
    const rows = await db
      .selectFrom("listings")
      .leftJoin("listing_counters", "listing_counters.listingId", "listings.id")
      .selectAll("listings")
      .select((eb) => [
        eb.fn.coalesce("listing_counters.views", eb.lit(0)).as("views"),
        eb.fn.coalesce("listing_counters.uniqueViews", eb.lit(0)).as("uniqueViews"),
      ])
      .execute();
    for (const row of rows) {
      expect(row.slug).toBe(slugify(row.title, row.id));
      expect(row.price).toBeGreaterThanOrEqual(5_000);
      expect(row.price).toBeLessThanOrEqual(60_000);
      expect(row.price % 100).toBe(0);
      expect(row.title.length).toBeGreaterThan(10);
      expect(row.description.split(/(?<=\.)\s/).length).toBeGreaterThanOrEqual(2);
      expect(row.contactPhone).toMatch(/^07\d{8}$/);
      expect(row.views).toBeGreaterThanOrEqual(0);
      expect(row.views).toBeLessThanOrEqual(300);
      expect(row.uniqueViews).toBeLessThanOrEqual(row.views);
      expect(Array.isArray(JSON.parse(row.amenities))).toBe(true);
    }
    expect(rows.filter((r) => Number(r.views) > 0).length).toBeGreaterThan(rows.length / 2);
    expect(rows.some((r) => r.keymoneyFee !== null)).toBe(true);
    // The owner's map link is theirs; the public gets a link to the point rounded to about 100 m (ADR 065).
    const linked = rows.filter(
      (r) =>
        r.ownerLocation?.startsWith("https://maps.google.com/?q=") && /q=-?\d+\.\d+,-?\d+\.\d+$/.test(r.ownerLocation),
    );
    expect(linked.length).toBeGreaterThan(0);
    for (const r of linked) expect(r.location).toMatch(/^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=/);
    expect(rows.some((r) => r.location && !r.location.startsWith("https://"))).toBe(true);
  });

  it("gives every listing 1-3 photos whose files exist, and some listing 3", async () => {
    const { db } = ctx();
    const photos = await db.selectFrom("listing_photos").selectAll().execute();
    const perListing = new Map<number, number>();
    for (const photo of photos) perListing.set(photo.listingId!, (perListing.get(photo.listingId!) ?? 0) + 1);
    expect(perListing.size).toBe(80);
    for (const count of perListing.values()) {
      expect(count).toBeGreaterThanOrEqual(1);
      expect(count).toBeLessThanOrEqual(3);
    }
    expect([...perListing.values()]).toContain(3);
    const keys = new Set<string>();
    for (const photo of photos.slice(0, 20)) {
      const variants = JSON.parse(photo.variants) as PhotoVariant[];
      expect(variants.map((v) => v.width)).toEqual([400, 800, 1200]);
      expect(photo.alt).toMatch(/ – photo [1-3]$/);
      for (const v of variants) {
        expect(v.key).toBe(`${photo.id}-${v.width}.webp`);
        expect((await storage.get(v.key))?.length).toBe(v.bytes);
        keys.add(v.key);
      }
    }
    expect(keys.size).toBe(60);
  });

  it("fingerprints every photo, marked seeded, so the demo's shared pictures never count as copied (ADR 074)", async () => {
    const { db } = ctx();
    const photos = await db.selectFrom("listing_photos").select(["id", "userId"]).execute();
    const fingerprints = await db.selectFrom("photo_fingerprints").selectAll().execute();
    expect(fingerprints.map((f) => f.photoId).sort()).toEqual(photos.map((p) => p.id).sort());
    expect(fingerprints.every((f) => f.seeded === 1 && f.listingId !== null)).toBe(true);
    // Another demo owner's photos are the same scenes: a real check would match them, a seeded row does not.
    const someone = photos.find((p) => p.userId !== fingerprints[0].userId)!;
    expect(await findCopiedPhotos(db, someone.userId, [fingerprints[0]], now)).toEqual([]);
    expect(await findCopiedPhotos(db, "a-new-owner", fingerprints.slice(0, 3), now)).toEqual([]);
  });

  it("sketches every description, marked seeded, so the demo's template texts never count as copied (ADR 079)", async () => {
    const { db } = ctx();
    const listings = await db.selectFrom("listings").select(["id", "userId", "description"]).execute();
    const sketches = await db.selectFrom("description_sketches").selectAll().execute();
    expect(sketches.map((s) => s.listingId).sort((a, b) => a - b)).toEqual(
      listings.map((l) => l.id).sort((a, b) => a - b),
    );
    expect(sketches.every((s) => s.seeded === 1 && s.removedAt === null)).toBe(true);
    expect(await db.selectFrom("description_bands").selectAll().execute()).toEqual([]);
    // A new owner posting a demo listing's very text: a real listing's would match, a seeded one does not.
    const longest = [...listings].sort((a, b) => b.description.length - a.description.length)[0];
    expect(await findSimilarDescriptions(db, "a-new-owner", longest.description, now)).toEqual([]);
  });

  it("trips no trust check, so a demo owner's edit keeps every demo ad live (ADR 082)", async () => {
    const { db } = ctx();
    const listings = await db.selectFrom("listings").select(["id", "userId"]).execute();
    const held: number[] = [];
    // Checked as an edit would check them, in a transaction that is then rolled back.
    const rollBack = new Error("roll back");
    await expect(
      db.transaction().execute(async (trx) => {
        for (const { id, userId } of listings)
          if (await checkListing(trx, id, { id: userId }, { ip: "127.0.0.1" }, now)) held.push(id);
        throw rollBack;
      }),
    ).rejects.toBe(rollBack);
    expect(listings).toHaveLength(80);
    expect(held).toEqual([]);
  });

  it("creates the three demo owners with working passwords, and no owner has more than 3 listings", async () => {
    const { db } = ctx();
    for (const owner of DEMO_OWNERS) {
      const user = await db.selectFrom("users").selectAll().where("email", "=", owner.email).executeTakeFirstOrThrow();
      expect(user).toMatchObject({ name: owner.name, role: "owner", status: "active", emailVerified: 1 });
      expect(user.phone).toMatch(/^0\d{9}$/);
      const account = await db
        .selectFrom("accounts")
        .selectAll()
        .where("userId", "=", user.id)
        .executeTakeFirstOrThrow();
      expect(account).toMatchObject({ providerId: "credential", accountId: user.id });
      expect(account.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(await verify(account.password!, DEMO_PASSWORD)).toBe(true);
      const listings = await db.selectFrom("listings").select("id").where("userId", "=", user.id).execute();
      expect(listings.length).toBeGreaterThanOrEqual(1);
    }
    const perOwner = await db
      .selectFrom("listings")
      .select(["userId", (eb) => eb.fn.countAll().as("count")])
      .groupBy("userId")
      .execute();
    for (const row of perOwner) expect(Number(row.count)).toBeLessThanOrEqual(3);
  });

  it("is found by search", async () => {
    const { db } = ctx();
    const result = await searchListings(
      db,
      { search: "moratuwa", university: "University of Moratuwa" },
      { page: 1, limit: 10, now },
    );
    expect(result.pagination.total).toBeGreaterThan(0);
    expect(result.ads[0].photos.length).toBeGreaterThan(0);
  });

  it("adds nothing when run again", async () => {
    const { db } = ctx();
    const before = await db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll().as("count"))
      .executeTakeFirstOrThrow();
    expect(await seedDemo(db, storage, now)).toBe(0);
    expect(await countPublicListings(db, now)).toBe(80);
    const after = await db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll().as("count"))
      .executeTakeFirstOrThrow();
    expect(Number(after.count)).toBe(Number(before.count));
  });

  it("writes the same listings on every run", async () => {
    const other = await freshDatabase("sqlite");
    try {
      await seedDemo(other.db, storage, now);
      const mine = await ctx()
        .db.selectFrom("listings")
        .select(["title", "price", "university", "description"])
        .orderBy("id")
        .execute();
      const theirs = await other.db
        .selectFrom("listings")
        .select(["title", "price", "university", "description"])
        .orderBy("id")
        .execute();
      expect(theirs).toEqual(mine);
    } finally {
      await other.destroy();
    }
  });
});
