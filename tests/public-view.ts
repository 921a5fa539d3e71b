import type { RouterContextProvider } from "react-router";
import type { DB } from "../app/db/db.server";
import { currentTime } from "../app/lib/clock";
import { newAlertMatches } from "../app/mail/alert-mails.server";
import { insertListing } from "../app/models/listing.server";
import { variantKey } from "../app/models/photo.server";
import { findSearchAlert, requestSearchAlert, stopSearchAlert } from "../app/models/search-alerts.server";
import { saveToShortlist, shareShortlist } from "../app/models/shortlist.server";
import { hashViewerId } from "../app/models/view-tracking.server";
import { loader as apiListLoader } from "../app/routes/api.listings";
import { loader as apiListingLoader } from "../app/routes/api.listings.$idOrSlug";
import { loader as mapLoader } from "../app/routes/browse.map";
import { loader as listingLoader } from "../app/routes/listing";
import { loader as photoLoader } from "../app/routes/photos.$key";
import { loader as sharedShortlistLoader } from "../app/routes/shared-shortlist";
import { loader as shortlistLoader } from "../app/routes/shortlist";
import { loader as sitemapLoader } from "../app/routes/sitemap[.]xml";
import type { MapPoints } from "../app/schemas/browse-view";
import type { ShortlistRow } from "../app/schemas/shortlist-view";
import { newRandomId, signVisitorId, VISITOR_COOKIE } from "../app/security/visitor-id.server";
import { requestContext } from "../app/services.server";
import type { PhotoStorage } from "../app/storage/storage.server";
import { listingInput } from "./factories";
import { TEST_SITE, testContext, unwrapResult } from "./request-context";

// What a visitor without a session gets for a listing from each public door
// (its page, the JSON API's entry and search, the sitemap, its photos, the
// browse map, a search alert's next email, a shortlist and its shared link):
// the suspension, held-for-review and trust check tests say where a listing is.

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
  const map = (await mapLoader({
    request: request(`/browse/map?search=${listing.word}`),
    context,
    params: {},
  } as never)) as MapPoints;
  return {
    page,
    api,
    inList: list.ads.length > 0,
    inSitemap: sitemap.includes(listing.slug),
    photo,
    onMap: map.points.some((point) => point.slug === listing.slug),
    inAlert: await inAlertEmail(db, listing),
    ...(await inShortlists(db, context, listing)),
  };
}

/**
 * Whether the next email of a confirmed alert for a search that finds the
 * listing's word lists it, as the search-alerts job picks the places (no mail
 * is queued). The alert stands for one confirmed just before the listing was
 * posted that has sent nothing since, so the listing is new to it; it is
 * stopped afterwards so no later job run in the test sends it.
 */
async function inAlertEmail(db: DB, listing: Made): Promise<boolean> {
  const asked = await requestSearchAlert(db, {
    email: `alert-${newRandomId()}@example.com`,
    locale: "en",
    query: `search=${listing.word}`,
    label: listing.word,
    confirmed: true,
  });
  if (!asked.alert) throw new Error(`no alert made: ${asked.outcome}`);
  await db
    .updateTable("search_alerts")
    .set({ seenUpTo: listing.id - 1 })
    .where("id", "=", asked.alert.id)
    .execute();
  const alert = await findSearchAlert(db, asked.alert.id);
  const places = await newAlertMatches(db, alert!, currentTime());
  await stopSearchAlert(db, asked.alert.id);
  return places.some((ad) => ad.id === String(listing.id));
}

/**
 * Whether a browser's shortlist that saved the listing shows it as available,
 * with its details, on its own page (visitor cookie, no session) and through
 * its shared link; a saved place no longer public shows as its ad number alone.
 */
async function inShortlists(db: DB, context: RouterContextProvider, listing: Made) {
  const { secrets } = context.get(requestContext);
  const visitorId = newRandomId();
  const visitorKey = hashViewerId(secrets.visitorSalt, "visitor", visitorId);
  const saved = await saveToShortlist(db, visitorKey, listing.id, { mayCreate: async () => true });
  if (!saved.ok) {
    if (saved.code !== "unavailable") throw new Error(`not saved: ${saved.code}`);
    // Not public now, so nobody can save it: the list stands for one that saved it while it was up
    // (places stay in a list whatever becomes of them, ADR 054).
    const at = currentTime().toISOString();
    const id = newRandomId();
    await db
      .insertInto("shortlists")
      .values({ id, visitorKey, shareCode: null, createdAt: at, updatedAt: at })
      .execute();
    await db.insertInto("shortlist_items").values({ shortlistId: id, listingId: listing.id, addedAt: at }).execute();
  }
  const code = await shareShortlist(db, visitorKey);
  const own = unwrapResult(
    await shortlistLoader({
      request: new Request(`${TEST_SITE}/shortlist`, {
        headers: { Cookie: `${VISITOR_COOKIE}=${signVisitorId(secrets.sessionSecret, visitorId)}` },
      }),
      context,
      params: {},
    } as never),
  ).body.rows as ShortlistRow[];
  const shared = unwrapResult(
    await sharedShortlistLoader({ request: request(`/s/${code}`), context, params: { code } } as never),
  ).body.rows as ShortlistRow[];
  const shown = (rows: ShortlistRow[]) => rows.some((row) => row.id === listing.id && row.available);
  return { inShortlist: shown(own), inSharedShortlist: shown(shared) };
}

/** In every public door: an active listing within its days. */
export const VISIBLE = {
  page: 200,
  api: 200,
  inList: true,
  inSitemap: true,
  photo: 200,
  onMap: true,
  inAlert: true,
  inShortlist: true,
  inSharedShortlist: true,
};

/** Out of every public door. */
export const NOWHERE = {
  page: 404,
  api: 404,
  inList: false,
  inSitemap: false,
  photo: 404,
  onMap: false,
  inAlert: false,
  inShortlist: false,
  inSharedShortlist: false,
};

/** An expired or let listing: its page (which says so), API entry and photos, and out of every list. */
export const PAGE_ONLY = { ...NOWHERE, page: 200, api: 200, photo: 200 };
