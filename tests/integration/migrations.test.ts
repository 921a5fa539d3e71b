import { sql } from "kysely";
import { Migrator } from "kysely/migration";
import { expect, it } from "vitest";
import type { DB } from "~/db/db.server";
import { migrations } from "~/db/migrations";
import { locationContains } from "~/db/search.server";
import { CITIES } from "~/directory/universities";
import { listingPlace } from "~/lib/geo/place";
import { describeEachDatabase } from "../test-db";

/** A migrator with the database taken back to just after `before` (having undone `last`, when named). */
async function undoneTo(db: DB, before: string, last?: string) {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const down = await migrator.migrateTo(before);
  expect(down.error).toBeUndefined();
  if (last) expect(down.results?.at(-1)).toMatchObject({ migrationName: last, status: "Success" });
  return migrator;
}

describeEachDatabase("migrations", (ctx) => {
  it("creates the listings table with ad numbers starting at 1001", async () => {
    const { db } = ctx();
    const now = new Date().toISOString();
    await db
      .insertInto("users")
      .values({
        id: "u1",
        name: "A",
        email: "a@example.com",
        emailVerified: 0,
        image: null,
        phone: "",
        role: "owner",
        status: "active",
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    const row = await db
      .insertInto("listings")
      .values({
        slug: "tmp",
        title: "Room near Moratuwa",
        description: "d",
        price: 15000,
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
    expect(row.id).toBe(1001);
    expect(sql).toBeDefined();
  });

  it("018 gives every listing already there its place: its rounded position, else its city's centre (ADR 049)", async () => {
    const { db } = ctx();
    const migrator = await undoneTo(db, "2026-11-24-017-listing-position", "2026-11-24-018-listing-place");
    const now = new Date().toISOString();
    // One unplaced listing per city of the directory, and one pinned listing.
    const rows = [
      ...CITIES.map((city) => ({ city: city.code, latitude: null, longitude: null })),
      { city: "kandy", latitude: 7.254321, longitude: 80.597654 },
    ];
    for (const [i, row] of rows.entries()) {
      await sql`insert into listings (slug, title, description, price, university, faculty, city, "propertyType",
        gender, amenities, "userId", "userEmail", "contactName", "contactPhone", status, "expiresAt", "createdAt",
        "updatedAt", latitude, longitude)
        values (${`place-${i}`}, 'Room', 'd', 10000, 'University of Moratuwa', 'Main Campus', ${row.city}, 'single',
        'any', '[]', 'u1', 'a@example.com', 'A', '0771234567', 'active', ${now}, ${now}, ${now},
        ${row.latitude}, ${row.longitude})`.execute(db);
    }
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    const placed = await db
      .selectFrom("listings")
      .select(["slug", "city", "latitude", "longitude", "placeLatitude", "placeLongitude", "placeBand"])
      .where("slug", "like", "place-%")
      .orderBy("id")
      .execute();
    expect(placed).toHaveLength(rows.length);
    for (const row of placed) {
      const expected = listingPlace(row);
      expect({ slug: row.slug, lat: row.placeLatitude, lng: row.placeLongitude, band: row.placeBand }).toEqual({
        slug: row.slug,
        lat: expected.placeLatitude,
        lng: expected.placeLongitude,
        band: Math.floor(expected.placeLatitude * 100),
      });
    }
    expect(placed.at(-1)).toMatchObject({ placeLatitude: 7.254, placeLongitude: 80.598 });
  });

  it("027 keeps the owner's location for their form and publishes it rounded unless they show the exact point (ADR 065)", async () => {
    const { db } = ctx();
    const migrator = await undoneTo(db, "2026-11-25-026-unconfirmed-index", "2026-11-28-027-public-location");
    const now = new Date().toISOString();
    const exactLink = "https://maps.google.com/?q=6.8842,79.8761";
    const rows = [
      { slug: "loc-link", location: exactLink, latitude: 6.8842, longitude: 79.8761, exact: 0 },
      { slug: "loc-shown", location: exactLink, latitude: 6.8842, longitude: 79.8761, exact: 1 },
      { slug: "loc-text", location: "Near the temple, 6.8842, 79.8761", latitude: null, longitude: null, exact: 0 },
      { slug: "loc-short", location: "https://maps.app.goo.gl/Zx8Pq2Lm9Rt", latitude: null, longitude: null, exact: 0 },
      { slug: "loc-plain", location: "Katubedda", latitude: null, longitude: null, exact: 0 },
      { slug: "loc-none", location: null, latitude: null, longitude: null, exact: 0 },
    ];
    for (const row of rows) {
      await sql`insert into listings (slug, title, description, price, university, faculty, city, "propertyType",
        gender, amenities, "userId", "userEmail", "contactName", "contactPhone", status, "expiresAt", "createdAt",
        "updatedAt", location, latitude, longitude, "exactPosition")
        values (${row.slug}, 'Room', 'd', 10000, 'University of Moratuwa', 'Main Campus', 'moratuwa', 'single',
        'any', '[]', 'u1', 'a@example.com', 'A', '0771234567', 'active', ${now}, ${now}, ${now},
        ${row.location}, ${row.latitude}, ${row.longitude}, ${row.exact})`.execute(db);
    }
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    const fixed = await db
      .selectFrom("listings")
      .select(["slug", "location", "ownerLocation"])
      .where("slug", "like", "loc-%")
      .orderBy("id")
      .execute();
    expect(fixed).toEqual([
      {
        slug: "loc-link",
        location: "https://www.google.com/maps/search/?api=1&query=6.884,79.876",
        ownerLocation: exactLink,
      },
      { slug: "loc-shown", location: exactLink, ownerLocation: exactLink },
      {
        slug: "loc-text",
        location: "Near the temple, 6.884, 79.876",
        ownerLocation: "Near the temple, 6.8842, 79.8761",
      },
      { slug: "loc-short", location: null, ownerLocation: "https://maps.app.goo.gl/Zx8Pq2Lm9Rt" },
      { slug: "loc-plain", location: "Katubedda", ownerLocation: "Katubedda" },
      { slug: "loc-none", location: null, ownerLocation: null },
    ]);
    // The search indexes follow: the exact digits no longer find the listing.
    const found = await db
      .selectFrom("listings")
      .select("slug")
      .where(() => locationContains(db, "8842"))
      .where("slug", "like", "loc-%")
      .execute();
    expect(found.map((r) => r.slug)).toEqual(["loc-shown"]);
  });

  it("029 hides every listing an earlier suspension left up, remembering its state (ADR 063)", async () => {
    const { db } = ctx();
    const migrator = await undoneTo(db, "2026-11-25-026-unconfirmed-index");
    const now = new Date().toISOString();
    for (const [id, status] of [
      ["u-suspended", "suspended"],
      ["u-active", "active"],
    ]) {
      await sql`insert into users (id, name, email, "emailVerified", phone, role, status, "createdAt", "updatedAt")
        values (${id}, 'A', ${`${id}@example.com`}, 0, '', 'owner', ${status}, ${now}, ${now})`.execute(db);
    }
    const rows = [
      ["u-suspended", "let"],
      ["u-suspended", "pending"],
      ["u-suspended", "expired"],
      ["u-active", "let"],
    ];
    for (const [i, [owner, status]] of rows.entries()) {
      await sql`insert into listings (slug, title, description, price, university, faculty, city, "propertyType",
        gender, amenities, "userId", "userEmail", "contactName", "contactPhone", status, "expiresAt", "createdAt",
        "updatedAt", "placeLatitude", "placeLongitude")
        values (${`susp-${i}`}, 'Room', 'd', 10000, 'University of Moratuwa', 'Main Campus', 'moratuwa', 'single',
        'any', '[]', ${owner}, 'a@example.com', 'A', '0771234567', ${status}, ${now}, ${now}, ${now}, 6.79, 79.9)`.execute(
        db,
      );
    }
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    const after = await db
      .selectFrom("listings")
      .select(["status", "hiddenBy", "statusBeforeHide", "stateVersion"])
      .where("slug", "like", "susp-%")
      .orderBy("slug")
      .execute();
    expect(after.map((row) => ({ ...row, stateVersion: Number(row.stateVersion) }))).toEqual([
      { status: "hidden", hiddenBy: "suspension", statusBeforeHide: "let", stateVersion: 1 },
      { status: "hidden", hiddenBy: "suspension", statusBeforeHide: "pending", stateVersion: 1 },
      { status: "hidden", hiddenBy: "suspension", statusBeforeHide: "expired", stateVersion: 1 },
      { status: "let", hiddenBy: null, statusBeforeHide: null, stateVersion: 0 },
    ]);
  });
  it("034 writes every listing's contact phone in E.164 beside the typed one (ADR 076)", async () => {
    const { db } = ctx();
    const migrator = await undoneTo(db, "2026-11-28-033-phone-confirmations", "2026-11-28-034-listing-phone-e164");
    const now = new Date().toISOString();
    const typed = ["077 123 4567", "+94 (0)77-123-4567", "0094712345678", "011 234 5678", "Not provided"];
    for (const [i, phone] of typed.entries()) {
      await sql`insert into listings (slug, title, description, price, university, faculty, city, "propertyType",
        gender, amenities, "userId", "userEmail", "contactName", "contactPhone", status, "expiresAt", "createdAt",
        "updatedAt", "placeLatitude", "placeLongitude")
        values (${`e164-${i}`}, 'Room', 'd', 10000, 'University of Moratuwa', 'Main Campus', 'moratuwa', 'single',
        'any', '[]', 'u1', 'a@example.com', 'A', ${phone}, 'active', ${now}, ${now}, ${now}, 6.79, 79.9)`.execute(db);
    }
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    const after = await db
      .selectFrom("listings")
      .select(["contactPhone", "contactPhoneE164"])
      .where("slug", "like", "e164-%")
      .orderBy("slug")
      .execute();
    expect(after.map((row) => row.contactPhoneE164)).toEqual([
      "+94771234567",
      "+94771234567",
      "+94712345678",
      "+94112345678",
      null,
    ]);
    expect(after.map((row) => row.contactPhone)).toEqual(typed);
  });

  it("044 moves every listing's view counts to listing_counters, and back down (ADR 111)", async () => {
    const { db } = ctx();
    const migrator = await undoneTo(db, "2026-11-29-043-users-created-index", "2026-11-29-044-listing-counters");
    const now = new Date().toISOString();
    const counts = [
      [0, 0, null],
      [12, 9, "2026-11-20T08:00:00.000Z"],
      [3, 3, null],
    ] as const;
    for (const [i, [views, unique, last]] of counts.entries()) {
      await sql`insert into listings (slug, title, description, price, university, faculty, city, "propertyType",
        gender, amenities, "userId", "userEmail", "contactName", "contactPhone", status, "expiresAt", "createdAt",
        "updatedAt", "placeLatitude", "placeLongitude", views, "uniqueViews", "lastViewed")
        values (${`counted-${i}`}, 'Room', 'd', 10000, 'University of Moratuwa', 'Main Campus', 'moratuwa', 'single',
        'any', '[]', 'u1', 'a@example.com', 'A', '0771234567', 'active', ${now}, ${now}, ${now}, 6.79, 79.9,
        ${views}, ${unique}, ${last})`.execute(db);
    }
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    const moved = await db
      .selectFrom("listings")
      .leftJoin("listing_counters", "listing_counters.listingId", "listings.id")
      .select([
        "listings.slug",
        "listing_counters.views",
        "listing_counters.uniqueViews",
        "listing_counters.lastViewed",
      ])
      .where("listings.slug", "like", "counted-%")
      .orderBy("listings.slug")
      .execute();
    // A listing never viewed gets no row; the others keep their three figures.
    expect(moved).toEqual([
      { slug: "counted-0", views: null, uniqueViews: null, lastViewed: null },
      { slug: "counted-1", views: 12, uniqueViews: 9, lastViewed: "2026-11-20T08:00:00.000Z" },
      { slug: "counted-2", views: 3, uniqueViews: 3, lastViewed: null },
    ]);
    const back = await migrator.migrateTo("2026-11-29-043-users-created-index");
    expect(back.error).toBeUndefined();
    const { rows } = await sql<{ views: number; uniqueViews: number }>`select views, "uniqueViews" from listings
      where slug like 'counted-%' order by slug`.execute(db);
    expect(rows.map((r) => [Number(r.views), Number(r.uniqueViews)])).toEqual([
      [0, 0],
      [12, 9],
      [3, 3],
    ]);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
  });
});
