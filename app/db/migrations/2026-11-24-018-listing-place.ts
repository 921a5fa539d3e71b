import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen migration (ADR 050): where each listing counts from for
// 'Nearest first' and 'Within': its own position rounded as the public sees it
// (3 decimals, about 100 m), else its city's centre. The app writes both on
// every insert and edit (app/lib/geo/place.ts); this fills in the listings
// already there, with the directory's city centres as they are today (copied
// below, as a frozen migration must): moving a centre later needs a migration
// of its own to move these rows.
//
// `placeBand` is the latitude band of 0.01° (about 1.1 km) that the index
// finds a circle by (app/lib/geo/nearby.ts works it out the same way).
/** [city code, latitude, longitude] of each town centre in app/directory/universities.ts on 2026-11-24. */
const CENTRES: readonly (readonly [string, number, number])[] = [
  ["colombo", 6.9341, 79.85],
  ["kandy", 7.2955, 80.6356],
  ["moratuwa", 6.773, 79.8816],
  ["kelaniya", 6.9553, 79.922],
  ["jaffna", 9.6684, 80.0074],
  ["matara", 5.9485, 80.5353],
  ["nugegoda", 6.8721, 79.8884],
  ["malabe", 6.9036, 79.9547],
  ["ratmalana", 6.8188, 79.871],
  ["katubedda", 6.7974, 79.8886],
  ["kuliyapitiya", 7.4688, 80.0401],
  ["homagama", 6.844, 80.0024],
  ["belihuloya", 6.7181, 80.7671],
  ["batticaloa", 7.7102, 81.6924],
  ["colombo-medical", 6.9147, 79.8778],
  ["ragama-medical", 7.0292, 79.917],
  ["galle-medical", 6.0329, 80.2168],
  ["mount-lavinia-engineering", 6.8339, 79.8644],
  ["mattegoda-engineering", 6.8135, 79.9724],
];

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await sql`alter table listings add column "placeLatitude" double precision not null default 0`.execute(db);
  await sql`alter table listings add column "placeLongitude" double precision not null default 0`.execute(db);
  // An unknown city (none is stored) would count from the first, Colombo.
  const centre = (axis: 1 | 2) =>
    sql`case city ${sql.join(
      CENTRES.map((c) => sql`when ${c[0]} then ${sql.lit(c[axis])}`),
      sql` `,
    )} else ${sql.lit(CENTRES[0][axis])} end`;
  const rounded = (column: "latitude" | "longitude") =>
    postgres ? sql`round(${sql.ref(column)}::numeric, 3)::double precision` : sql`round(${sql.ref(column)}, 3)`;
  await sql`update listings set
    "placeLatitude" = case when latitude is null or longitude is null then ${centre(1)} else ${rounded("latitude")} end,
    "placeLongitude" = case when latitude is null or longitude is null then ${centre(2)} else ${rounded("longitude")} end`.execute(
    db,
  );
  if (postgres) {
    await sql`alter table listings add column "placeBand" integer generated always as (floor("placeLatitude" * 100)::integer) stored`.execute(
      db,
    );
  } else {
    // Sri Lanka's latitudes are positive, so truncation is the floor.
    await sql`alter table listings add column "placeBand" integer generated always as (cast("placeLatitude" * 100 as integer)) virtual`.execute(
      db,
    );
  }
  // A circle near a campus: the university, then each band's longitude range;
  // latitude, status and expiry let the exact check and the public check run
  // on the index entry, and createdAt and id order a page without reading a
  // row (PostgreSQL read 23,000 rows for 'within 2 km' of Colombo without
  // them); the type, gender and price filters are checked there too.
  await sql`create index listings_place_idx on listings
    (university, "placeBand", "placeLongitude", "placeLatitude", status, "expiresAt", "createdAt", id,
     "propertyType", gender, price)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index listings_place_idx`.execute(db);
  await sql`alter table listings drop column "placeBand"`.execute(db);
  await sql`alter table listings drop column "placeLongitude"`.execute(db);
  await sql`alter table listings drop column "placeLatitude"`.execute(db);
}
