import type { DB } from "../app/db/db.server";
import { insertListing } from "../app/models/listing.server";
import { variantKey } from "../app/models/photo.server";
import { loader as apiListLoader } from "../app/routes/api.listings";
import { loader as apiListingLoader } from "../app/routes/api.listings.$idOrSlug";
import { loader as listingLoader } from "../app/routes/listing";
import { loader as photoLoader } from "../app/routes/photos.$key";
import { loader as sitemapLoader } from "../app/routes/sitemap[.]xml";
import type { PhotoStorage } from "../app/storage/storage.server";
import { listingInput } from "./factories";
import { TEST_SITE, testContext, unwrapResult } from "./request-context";

// What a visitor without a session gets for a listing from each public door
// (its page, the JSON API's entry and search, the sitemap, its photos): the
// suspension and held-for-review tests check that a listing is nowhere.

let seq = 0;

export type Made = { id: number; slug: string; word: string; photo: string; photoId: string };

/** A listing of `owner` with one stored photo; `word` finds it in search. */
export async function listingWithPhoto(
  db: DB,
  storage: PhotoStorage,
  owner: { id: string; email: string },
): Promise<Made> {
  const word = `suspword${++seq}x${Date.now().toString(36)}`;
  const made = await insertListing(db, owner, listingInput({ title: `Annex ${word}` }));
  const photoId = crypto.randomUUID();
  const photo = variantKey(photoId, 400);
  await storage.put(photo, Buffer.from("RIFF....WEBPVP8 test photo"));
  await db
    .insertInto("listing_photos")
    .values({
      id: photoId,
      listingId: made.id,
      userId: owner.id,
      position: 0,
      width: 400,
      height: 300,
      bytes: 26,
      variants: JSON.stringify([{ width: 400, height: 300, bytes: 26, key: photo }]),
      alt: null,
      createdAt: new Date().toISOString(),
    })
    .execute();
  return { ...made, word, photo, photoId };
}

const request = (path: string) => new Request(`${TEST_SITE}${path}`);

/** What a visitor without a session gets for the listing from each public door. */
export async function publicView(db: DB, storage: PhotoStorage, listing: Made) {
  const context = testContext({ db, storage });
  const page = unwrapResult(
    await listingLoader({
      request: request(`/listing/${listing.slug}`),
      context,
      params: { slug: listing.slug },
    } as never),
  ).status;
  const api = (
    (await apiListingLoader({
      request: request(`/api/listings/${listing.id}`),
      context,
      params: { idOrSlug: String(listing.id) },
    } as never)) as Response
  ).status;
  const list = (await (
    (await apiListLoader({
      request: request(`/api/listings?search=${listing.word}`),
      context,
      params: {},
    } as never)) as Response
  ).json()) as { ads: { id: string }[] };
  const sitemap = await (
    (await sitemapLoader({ request: request("/sitemap.xml"), context, params: {} } as never)) as Response
  ).text();
  const photo = (
    (await photoLoader({
      request: request(`/photos/${listing.photo}`),
      context,
      params: { key: listing.photo },
    } as never)) as Response
  ).status;
  return { page, api, inList: list.ads.length > 0, inSitemap: sitemap.includes(listing.slug), photo };
}

/** Out of every public door. */
export const NOWHERE = { page: 404, api: 404, inList: false, inSitemap: false, photo: 404 };
