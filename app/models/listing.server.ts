import { sql } from "kysely";
import { notePageListing } from "~/cache/render-hints.server";
import type { DB } from "~/db/db.server";
import type { PhotoRow } from "~/db/schema";
import { notIndexed } from "~/db/search.server";
import { currentTime } from "~/lib/clock";
import { expiryFrom } from "~/lib/days-left";
import { type ListingPlace, listingPlace } from "~/lib/geo/place";
import { publicLocation } from "~/lib/geo/public-location";
import { toE164 } from "~/lib/phone";
import { adNumberFromSlug, MAX_AD_NUMBER, parseAdNumber, slugify } from "~/lib/slug";
import type { NewListingInput } from "~/schemas/listing-form";
import { EXPIRED_STATUS, LET_STATUS, LISTED_STATUS, PUBLIC_PAGE_STATUSES } from "~/schemas/listing-status";
import type { ListingDetail } from "~/schemas/listing-view";
import { type ListingRowWithChecks, listingsWithChecks } from "./listing-checks.server";
import { newestAdNumber } from "./listing-search.server";
import { isPublicNow, photosFor, toSummary } from "./listing-summary.server";
import { confirmedUntil } from "./phone-confirmation.server";

export { photoUrl } from "~/lib/photo-urls";

function toDetail(row: ListingRowWithChecks, photos: PhotoRow[], now: Date): ListingDetail {
  notePageListing(row.id);
  return detailOf(row, photos, now);
}

function detailOf(row: ListingRowWithChecks, photos: PhotoRow[], now: Date): ListingDetail {
  const isPublic = row.status === LISTED_STATUS && row.expiresAt > now.toISOString();
  return {
    ...toSummary(row, photos, now),
    contactName: row.contactName,
    contactPhone: row.contactPhone,
    whatsapp: row.whatsapp === 1,
    viber: row.viber === 1,
    whatsappPhone: row.whatsappPhone,
    uniqueViews: row.uniqueViews,
    lastViewed: row.lastViewed,
    userId: row.userId,
    isExpired: row.status === EXPIRED_STATUS || (row.status === LISTED_STATUS && row.expiresAt <= now.toISOString()),
    isLet: row.status === LET_STATUS,
    isPublic,
  };
}

/**
 * Listings by id whatever their status, in the order of `ids` (unknown ids
 * left out): a shortlist keeps the places it saved after they expire, are
 * hidden or deleted, and says so (`isPublic`). Not a page's own listing, so
 * nothing is noted for the page cache.
 */
export async function findListingsByIds(db: DB, ids: readonly number[], now = currentTime()): Promise<ListingDetail[]> {
  if (ids.length === 0) return [];
  const [rows, photos] = await Promise.all([
    listingsWithChecks(db, now)
      .where("listings.id", "in", [...ids])
      .execute(),
    photosFor(db, [...ids]),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [detailOf(row, photos.get(id) ?? [], now)] : [];
  });
}

export async function findListingById(db: DB, id: number, now = currentTime()): Promise<ListingDetail | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_AD_NUMBER) return null;
  return publicListing(db, { id }, now);
}

/** The listing with this ad number or slug, with its photos, if its page is public. */
async function publicListing(db: DB, key: { id: number } | { slug: string }, now: Date): Promise<ListingDetail | null> {
  const query = listingsWithChecks(db, now).where("listings.status", "in", [...PUBLIC_PAGE_STATUSES]);
  const row = await ("id" in key
    ? query.where("listings.id", "=", key.id)
    : query.where("listings.slug", "=", key.slug)
  ).executeTakeFirst();
  if (!row) return null;
  const photos = await photosFor(db, [row.id]);
  return toDetail(row, photos.get(row.id) ?? [], now);
}

/**
 * A listing by its slug. A slug that no longer matches (the title changed)
 * still finds the listing by the ad number at its end; the caller redirects
 * to the slug it returns.
 */
export async function findListingBySlug(db: DB, slug: string, now = currentTime()): Promise<ListingDetail | null> {
  const listing = await publicListing(db, { slug }, now);
  if (listing) return listing;
  const adNumber = adNumberFromSlug(slug);
  return adNumber ? findListingById(db, adNumber, now) : null;
}

/** By numeric id/ad number or by slug (the API accepts either). */
export async function findListingByIdOrSlug(db: DB, value: string, now = currentTime()): Promise<ListingDetail | null> {
  if (/^\d+$/.test(value)) {
    const adNumber = parseAdNumber(value);
    return adNumber ? findListingById(db, adNumber, now) : null;
  }
  return findListingBySlug(db, value, now);
}

/**
 * Public listings: the active ones, counted by triggers (migration 047, ADR 127), less those past
 * their expiry that the expiry job has not marked yet (a few, found by a partial index). Counting
 * the public listings themselves read every one of them (30 ms at 100,000 on PostgreSQL).
 */
export async function countPublicListings(db: DB, now = currentTime()): Promise<number> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom("listing_status_counts").select("count").where("status", "=", LISTED_STATUS).as("active"),
      eb
        .selectFrom("listings")
        .select((eb) => eb.fn.countAll().as("lapsed"))
        // A literal, not a parameter: the partial index's condition must be seen in the query.
        .where("status", "=", sql.lit(LISTED_STATUS))
        .where("expiresAt", "<=", now.toISOString())
        .as("lapsed"),
    ])
    .executeTakeFirst();
  return Number(row?.active ?? 0) - Number(row?.lapsed ?? 0);
}

/**
 * Distinct universities that have at least one public listing. Walked one
 * university at a time along the (status, university, …) indexes, each step
 * the next name after the last: a few index probes, where `count(distinct
 * university)` read every public listing (75 ms at 100,000 on PostgreSQL,
 * once per home page after every write).
 */
export async function countUniversitiesWithListings(db: DB, now = currentTime()): Promise<number> {
  const at = now.toISOString();
  const row = await db
    .withRecursive("seen(name)", (qb) =>
      qb
        .selectFrom("listings")
        .select((eb) => eb.fn.min<string | null>("university").as("name"))
        .where((eb) => isPublicNow(db, eb, at))
        .unionAll((qb) =>
          qb
            .selectFrom("seen")
            .select((eb) =>
              eb
                .selectFrom("listings")
                .select((eb) => eb.fn.min("listings.university").as("next"))
                .where((eb) => isPublicNow(db, eb, at))
                .whereRef("listings.university", ">", "seen.name")
                .as("name"),
            )
            .where("seen.name", "is not", null),
        ),
    )
    .selectFrom("seen")
    .select((eb) => eb.fn.count("seen.name").as("count"))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/**
 * Public listings' slugs and update times for the sitemap, newest first: all of them, or those
 * numbered after `ids.after` up to `ids.upTo` (one page of a sitemap too big for one file, ADR 134),
 * read along the primary key. Only two columns, so 100,000 rows stay cheap.
 */
export async function listPublicSlugs(
  db: DB,
  options: { now?: Date; ids?: { after: number; upTo: number } } = {},
): Promise<{ slug: string; updatedAt: string }[]> {
  const now = (options.now ?? currentTime()).toISOString();
  let query = db
    .selectFrom("listings")
    .select(["slug", "updatedAt"])
    .where((eb) => isPublicNow(db, eb, now))
    .orderBy("id", "desc");
  if (options.ids) query = query.where("id", ">", options.ids.after).where("id", "<=", options.ids.upTo);
  return query.execute();
}

/**
 * Which blocks of `size` listing numbers hold a public listing now (block 0 is numbers 1 to `size`),
 * in order: the sitemap index lists only pages with something on them (ADR 134). Each block is one
 * probe along the primary key that stops at its first public listing: a few hundred probes at a
 * million listings, where reading every public listing's number took a quarter of a second.
 */
export async function blocksWithPublicListings(db: DB, size: number, now = currentTime()): Promise<number[]> {
  const last = Math.ceil((await newestAdNumber(db)) / size) - 1;
  if (last < 0) return [];
  const at = now.toISOString();
  const { rows } = await sql<{ block: number }>`
    with recursive blocks(block) as (select 0 union all select block + 1 from blocks where block < ${last})
    select block from blocks
    where exists (
      select 1 from listings
      where id > block * ${sql.lit(size)} and id <= (block + 1) * ${sql.lit(size)}
        and status = ${LISTED_STATUS} and ${notIndexed(db, sql.ref("expiresAt"))} > ${at})
    order by block`.execute(db);
  return rows.map((r) => Number(r.block));
}

/**
 * The stored columns of a listing's validated values: the amenities as JSON,
 * the owner's choice of an exact point as 0/1, the place distance counts from
 * (ADR 050), the location the public sees beside the owner's own (ADR 065) and
 * the contact phone's E.164 form (ADR 076), so no write path can store a
 * position, a location or a phone without its other form.
 */
export function listingColumns<
  T extends Omit<NewListingInput, "contactName" | "contactPhone"> & { contactPhone?: string },
>(
  input: T,
): Omit<T, "amenities" | "exactPosition" | "whatsapp" | "viber"> &
  ListingPlace & {
    amenities: string;
    exactPosition: number;
    whatsapp: number;
    viber: number;
    ownerLocation: string | null;
    contactPhoneE164?: string | null;
  } {
  const { amenities, exactPosition, whatsapp, viber, ...rest } = input;
  return {
    ...rest,
    ...listingPlace(input),
    location: publicLocation(input),
    ownerLocation: input.location,
    amenities: JSON.stringify(amenities),
    exactPosition: exactPosition ? 1 : 0,
    whatsapp: whatsapp ? 1 : 0,
    viber: viber ? 1 : 0,
    // The phone as typed stays what the page shows; its E.164 form counts ads per phone (ADR 076).
    ...(input.contactPhone === undefined ? {} : { contactPhoneE164: toE164(input.contactPhone) }),
  };
}

/**
 * Inserts a listing and gives it its slug (which needs the ad number the
 * database assigns), with the lapse of its owner's standing confirmation of
 * its number (ADR 084). Run inside a transaction by callers that check limits.
 */
export async function insertListing(
  db: DB,
  owner: { id: string; email: string },
  input: NewListingInput,
  now = currentTime(),
): Promise<{ id: number; slug: string }> {
  const createdAt = now.toISOString();
  const placeholder = `pending-${crypto.randomUUID()}`;
  const { id } = await db
    .insertInto("listings")
    .values({
      ...listingColumns(input),
      phoneConfirmedUntil: await confirmedUntil(db, owner.id, toE164(input.contactPhone), now),
      slug: placeholder,
      userId: owner.id,
      userEmail: owner.email,
      status: LISTED_STATUS,
      hiddenReason: null,
      expiresAt: expiryFrom(now),
      createdAt,
      updatedAt: createdAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const slug = slugify(input.title, id);
  await db.updateTable("listings").set({ slug }).where("id", "=", id).execute();
  return { id, slug };
}
