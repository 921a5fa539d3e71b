import { createHash } from "node:crypto";
import { sql } from "kysely";
import { withListingSearchSetAside, withSecondaryIndexesSetAside } from "~/db/bulk-load.server";
import type { DB } from "~/db/db.server";
import type { NewListingRow } from "~/db/schema";
import { currentTime } from "~/lib/clock";
import { expiryFrom } from "~/lib/days-left";
import { slugify } from "~/lib/slug";
import { listingColumns } from "~/models/listing.server";
import type { PhotoVariant } from "~/models/listing-summary.server";
import { MAX_LISTINGS_PER_OWNER } from "~/models/owner-listings.server";
import { variantKey } from "~/models/photo.server";
import { fingerprintRow } from "~/models/photo-copies.server";
import type { PhotoFingerprint } from "~/models/photo-fingerprint.server";
import { GENDERS, PROPERTY_TYPES, type PropertyType } from "~/schemas/browse-filters";
import { LISTED_STATUS } from "~/schemas/listing-status";
import type { PhotoStorage } from "~/storage/storage.server";
import { generateListing } from "./listing-text";
import { demoPhotoPool } from "./photo-pool.server";
import { allCampuses } from "./places";
import { createRandom } from "./random";
import type { SceneKind } from "./scenes";

/**
 * The synthetic landlords (load tests only): each owns MAX_LISTINGS_PER_OWNER listings, as real owners
 * may (ADR 105), with an address at this domain, a number of their own and an account a year old.
 * They have no password, so nobody can sign in as one.
 */
export const SYNTHETIC_DOMAIN = "@seed.bodima.lk";
export const SYNTHETIC_OWNER_NAME = "Synthetic Landlord";

/** Rows per INSERT: well under SQLite's 32,766 bound parameters and PostgreSQL's 65,535. */
const BATCH_SIZE = 500;
/** Fewer, larger commits: each commit rewrites the index pages it touched. */
const TRANSACTION_SIZE = 5_000;
const POOL_SIZE = 10;
const DAY_MS = 24 * 60 * 60 * 1000;
const YEAR_MS = 365 * DAY_MS;

export type SyntheticOptions = {
  count: number;
  now?: Date;
  /** Called after each batch with the number of listings added so far. */
  onProgress?: (added: number) => void;
};

/** A UUID-shaped id that `seed` always gives the same. */
function stableId(seed: string): string {
  const hex = createHash("sha256").update(seed).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** A stable id per pool picture, so repeated runs reuse the same files. */
const poolPhotoId = (index: number) => stableId(`bodima-synthetic-pool-${index}`);

type PoolEntry = { kind: SceneKind; variants: PhotoVariant[]; fingerprint: PhotoFingerprint | null };

/**
 * Writes the shared pool of pictures. Synthetic photo rows have ids of their
 * own but point at these files; deleteListingPhotos only removes files named
 * after a row's own id, so deleting a synthetic listing never removes them.
 */
async function writePool(storage: PhotoStorage): Promise<PoolEntry[]> {
  const pictures = (await demoPhotoPool()).slice(0, POOL_SIZE);
  return Promise.all(
    pictures.map(async (picture, index) => {
      const id = poolPhotoId(index);
      const variants = await Promise.all(
        picture.variants.map(async (v) => {
          const key = variantKey(id, v.width);
          await storage.put(key, v.data);
          return { width: v.width, height: v.height, bytes: v.bytes, key };
        }),
      );
      return { kind: picture.kind, variants, fingerprint: picture.fingerprint };
    }),
  );
}

const PICTURE_FOR: Record<PropertyType, SceneKind[]> = {
  single: ["room", "room-wardrobe"],
  shared: ["shared"],
  hostel: ["bunk", "shared"],
  apartment: ["house", "room"],
};

type SyntheticOwner = { id: string; email: string; phone: string };

/**
 * The owner of the `index`-th listing of a seed run: one per MAX_LISTINGS_PER_OWNER, numbered across
 * runs (`first`, the owners already seeded) so that each has an address and a mobile number of its own.
 */
function syntheticOwner(run: string, first: number, index: number): SyntheticOwner {
  // One owner of thousands of ads skewed every plan by owner (ADR 105): as many as a real owner may have.
  const n = first + Math.floor(index / MAX_LISTINGS_PER_OWNER);
  return {
    id: stableId(`bodima-synthetic-owner-${run}-${n}`),
    email: `landlord-${n}${SYNTHETIC_DOMAIN}`,
    // 070 and seven digits: a Sri Lankan mobile number no real person is given in the seed.
    phone: `070${String(n % 10_000_000).padStart(7, "0")}`,
  };
}

/** What every synthetic owner's account row says besides who it is. */
const OWNER_ACCOUNT = { name: SYNTHETIC_OWNER_NAME, role: "owner", status: "active", image: null, emailVerified: 1 };

/** The owners' account rows: no password row, so nobody signs in as one; made a year before `now`. */
function ownerRows(owners: readonly SyntheticOwner[], now: Date) {
  const made = new Date(now.getTime() - YEAR_MS).toISOString();
  return owners.map((owner) => ({
    ...owner,
    ...OWNER_ACCOUNT,
    emailConfirmedAt: made,
    createdAt: made,
    updatedAt: made,
  }));
}

/**
 * Adds `count` generated listings quickly, for load and search tests: rows
 * go in 500 per statement, 5,000 per transaction; each listing gets one
 * photo row pointing at the shared pool. Slugs follow the usual rule, which
 * needs the ad number, so each batch is inserted with placeholder slugs and
 * then given its real slugs in one UPDATE.
 */
export async function seedSynthetic(db: DB, storage: PhotoStorage, options: SyntheticOptions): Promise<number> {
  const now = options.now ?? currentTime();
  const pool = await writePool(storage);
  const pictures = Object.fromEntries(
    Object.entries(PICTURE_FOR).map(([type, kinds]) => [type, pool.filter((p) => kinds.includes(p.kind))]),
  ) as Record<PropertyType, PoolEntry[]>;
  const campuses = allCampuses();
  const mainCampuses = campuses.filter((c) => c.faculty.isMainCampus);
  const existing = await db
    .selectFrom("listings")
    .select((eb) => eb.fn.countAll().as("count"))
    .executeTakeFirst();
  // A different but reproducible sequence on each run.
  const rand = createRandom(0x5eed + Number(existing?.count ?? 0));
  const run = crypto.randomUUID();
  const seededOwners = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("email", "like", `%${SYNTHETIC_DOMAIN}`)
    .executeTakeFirst();
  const ownerOf = (index: number) => syntheticOwner(run, Number(seededOwners?.count ?? 0), index);

  // Each listing's views (listing_counters, ADR 111), by its placeholder slug until it has an id.
  const viewsOf = new Map<string, number>();
  const makeRow = (index: number): NewListingRow => {
    // Main campuses get most listings, as in real life.
    const place = rand.chance(0.85) ? rand.pick(mainCampuses) : rand.pick(campuses);
    const text = generateListing(rand, place, {
      propertyType: rand.pick(PROPERTY_TYPES),
      gender: rand.pick(GENDERS),
      mapLinkChance: 0.1,
    });
    const createdAt = new Date(now.getTime() - Math.round(rand.next() * 25 * DAY_MS)).toISOString();
    const views = rand.int(0, 300);
    const owner = ownerOf(index);
    const slug = `pending-${run}-${index}`;
    viewsOf.set(slug, views);
    return {
      ...listingColumns({ ...text, contactPhone: owner.phone }),
      slug,
      userId: owner.id,
      userEmail: owner.email,
      contactName: SYNTHETIC_OWNER_NAME,
      status: LISTED_STATUS,
      expiresAt: expiryFrom(new Date(createdAt)),
      // One in a thousand doubted by students (ADR 057), as a busy site may have: the benchmark
      // then measures browse sinking them (ADR 059). By position, so the random sequence is unchanged.
      unconfirmedSince: index % 1000 === 999 ? createdAt : null,
      hiddenReason: null,
      createdAt,
      updatedAt: createdAt,
    };
  };

  const insertBatch = async (trx: DB, rows: NewListingRow[], first: number) => {
    // The batch's owners first; one whose ads straddle two batches is there already.
    const owners = new Map(rows.map((_, i) => ownerOf(first + i)).map((o) => [o.id, o]));
    await trx
      .insertInto("users")
      .values(ownerRows([...owners.values()], now))
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
    const inserted = await trx.insertInto("listings").values(rows).returning(["id", "slug"]).execute();
    // RETURNING order is not guaranteed, so rows are matched by their placeholder slug.
    const byPlaceholder = new Map(rows.map((r) => [r.slug, r]));
    const listings = inserted.map(({ id, slug }) => ({ id, row: byPlaceholder.get(slug)! }));
    const counters = listings.flatMap(({ id, row }) => {
      const views = viewsOf.get(row.slug) ?? 0;
      viewsOf.delete(row.slug);
      return views > 0 ? [{ listingId: id, views, uniqueViews: Math.floor(views * 0.7), lastViewed: null }] : [];
    });
    if (counters.length > 0) await trx.insertInto("listing_counters").values(counters).execute();
    const slugs = listings.map(({ id, row }) => sql`when ${id} then ${slugify(row.title, id)}`);
    await trx
      .updateTable("listings")
      .set({ slug: sql<string>`case id ${sql.join(slugs, sql` `)} end` })
      .where(
        "id",
        "in",
        listings.map((l) => l.id),
      )
      .execute();
    const photos = listings.map(({ id, row }) => {
      const choices = pictures[row.propertyType as PropertyType];
      return { id: crypto.randomUUID(), listingId: id, row, picture: choices[id % choices.length] };
    });
    await trx
      .insertInto("listing_photos")
      .values(
        photos.map(({ id, listingId, row, picture: { variants } }) => {
          const largest = variants[variants.length - 1];
          return {
            id,
            listingId,
            userId: row.userId,
            position: 0,
            width: largest.width,
            height: largest.height,
            bytes: largest.bytes,
            variants: JSON.stringify(variants),
            alt: `${row.title} – photo 1`,
            createdAt: row.createdAt,
          };
        }),
      )
      .execute();
    // Seeded: the pool's few pictures would match each other (ADR 074); the backfill job then skips them.
    const fingerprints = photos.flatMap(({ id, listingId, row, picture: { fingerprint } }) =>
      fingerprint
        ? [
            fingerprintRow({
              photoId: id,
              listingId,
              userId: row.userId,
              fingerprint,
              seeded: true,
              now: new Date(row.createdAt),
            }),
          ]
        : [],
    );
    if (fingerprints.length > 0) await trx.insertInto("photo_fingerprints").values(fingerprints).execute();
  };

  // A large load builds the tables' other indexes once at the end instead of row by row (README: seed budget).
  const load = () => insertAll(db, options, makeRow, insertBatch);
  if (options.count < SET_ASIDE_FROM) return load();
  // SQLite's full-text indexes too: filled in one statement each at the end (ADR 096).
  return withListingSearchSetAside(db, () =>
    withSecondaryIndexesSetAside(db, "listings", () =>
      withSecondaryIndexesSetAside(db, "listing_photos", () =>
        withSecondaryIndexesSetAside(db, "photo_fingerprints", load),
      ),
    ),
  );
}

/** Loads of this many listings or more set the secondary indexes aside (smaller ones gain nothing). */
const SET_ASIDE_FROM = 50_000;

async function insertAll(
  db: DB,
  options: SyntheticOptions,
  makeRow: (index: number) => NewListingRow,
  insertBatch: (trx: DB, rows: NewListingRow[], first: number) => Promise<void>,
): Promise<number> {
  let added = 0;
  while (added < options.count) {
    const inThisTransaction = Math.min(TRANSACTION_SIZE, options.count - added);
    await db.transaction().execute(async (trx) => {
      for (let done = 0; done < inThisTransaction; done += BATCH_SIZE) {
        const size = Math.min(BATCH_SIZE, inThisTransaction - done);
        const rows = Array.from({ length: size }, (_, i) => makeRow(added + done + i));
        await insertBatch(trx, rows, added + done);
      }
    });
    added += inThisTransaction;
    options.onProgress?.(added);
  }
  return added;
}
