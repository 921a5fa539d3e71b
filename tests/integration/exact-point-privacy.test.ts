import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import { getAdResponse, listAdsResponse } from "../../app/api/listings.server";
import type { DB } from "../../app/db/db.server";
import { findOwnerListingForm } from "../../app/models/owner-listing-reads.server";
import { createOwnerListing, type ListingOwner, updateOwnerListing } from "../../app/models/owner-listings.server";
import { saveToShortlist, shareShortlist } from "../../app/models/shortlist.server";
import { hashViewerId } from "../../app/models/view-tracking.server";
import { loader as mapLoader } from "../../app/routes/browse.map";
import { loader as listingLoader } from "../../app/routes/listing";
import { loader as sharedLoader } from "../../app/routes/shared-shortlist";
import { loader as shortlistLoader } from "../../app/routes/shortlist";
import { loader as sitemapLoader } from "../../app/routes/sitemap[.]xml";
import type { RawListingForm } from "../../app/schemas/listing-form";
import { signVisitorId } from "../../app/security/visitor-id.server";
import { insertListingOwner, testJpeg } from "../factories";
import { LISTING_FORM } from "../owner-fixtures";
import { TEST_SITE, testContext, unwrapResult } from "../request-context";
import { tempPhotoStorage } from "../temp-photo-storage";
import { describeEachDatabase } from "../test-db";

// The trust-and-safety issue: with 'Show the exact point' off (ADR 052, 065) no
// public output carries the owner's pasted map link or typed coordinates finer
// than the rounded position (3 decimals, about 100 m). Each output is read as
// its route gives it: the JSON API, the listing page's loader data (what the
// page renders and serializes into its HTML, head tags and JSON-LD included),
// the shortlist and its shared copy, the map's points and the sitemap.

const EXACT_LINK = "https://maps.google.com/?q=6.8842,79.8761";
/**
 * A coordinate of the place's neighbourhood (6.88…, 79.87…) with more than 3 decimals, or any in
 * degrees and minutes. (The directory's town centres, public and elsewhere, have 4 decimals.)
 */
const FINE = /(?<![\d.])(?:6\.88|79\.87)\d{2,}|\d°\s*\d+(?:\.\d+)?\s*['′]/;

function expectNoExactPoint(label: string, body: string) {
  expect(body, label).not.toContain("6.8842");
  expect(body, label).not.toContain("79.8761");
  expect(body, label).not.toContain("8842");
  expect(body, label).not.toMatch(FINE);
}

const jpeg = testJpeg;

const newOwner = (db: DB) => insertListingOwner(db, "exact-point");

/** A word of its own in each listing's title, so the lists below show that listing alone. */
const uniqueWord = () => Array.from(randomBytes(8), (b) => String.fromCharCode(97 + (b % 26))).join("");

async function post(db: DB, owner: ListingOwner, form: Partial<RawListingForm>) {
  const { storage } = tempPhotoStorage();
  const word = uniqueWord();
  const title = `Room ${word}`;
  const input = { ...LISTING_FORM, title, ...form };
  const result = await createOwnerListing(db, storage, owner, input, { files: [await jpeg()] });
  if (!result.ok) throw new Error(result.code);
  return { ...result.listing, storage, word, title };
}

type Args<T extends (...args: never[]) => unknown> = Parameters<T>[0];

/** Every public output a listing appears in, as text, the way each route answers. */
async function publicOutputs(
  db: DB,
  listing: { id: number; slug: string; word: string },
): Promise<Record<string, string>> {
  const context = testContext({ db });
  const json = async (response: Response) => JSON.stringify(await response.json());
  const page = unwrapResult(
    await listingLoader({ params: { slug: listing.slug }, context } as unknown as Args<typeof listingLoader>),
  );
  const hex = randomBytes(16).toString("hex");
  const visitorKey = hashViewerId("s".repeat(32), "visitor", hex);
  await saveToShortlist(db, visitorKey, listing.id, { mayCreate: async () => true });
  const code = await shareShortlist(db, visitorKey);
  const cookie = `bodima_vid=${signVisitorId("y".repeat(64), hex)}`;
  const shortlist = unwrapResult(
    await shortlistLoader({
      request: new Request(`${TEST_SITE}/shortlist`, { headers: { Cookie: cookie } }),
      context,
      params: {},
    } as unknown as Args<typeof shortlistLoader>),
  );
  const shared = unwrapResult(
    await sharedLoader({ params: { code }, context } as unknown as Args<typeof sharedLoader>),
  );
  const map = await mapLoader({
    request: new Request(`${TEST_SITE}/browse/map?search=${listing.word}`),
    context,
    params: {},
  } as unknown as Args<typeof mapLoader>);
  const sitemap = (await sitemapLoader({
    request: new Request(`${TEST_SITE}/sitemap.xml`),
    context,
    params: {},
  } as unknown as Args<typeof sitemapLoader>)) as Response;
  return {
    apiList: await json(await listAdsResponse(db, new URLSearchParams({ search: listing.word }))),
    apiItem: await json(await getAdResponse(db, listing.slug)),
    listingPage: JSON.stringify(page.body),
    shortlist: JSON.stringify(shortlist.body),
    shared: JSON.stringify(shared.body),
    map: JSON.stringify(map),
    sitemap: await sitemap.text(),
  };
}

async function apiLocation(db: DB, slug: string): Promise<string | null> {
  const body = (await (await getAdResponse(db, slug)).json()) as { ad: { location: string | null } };
  return body.ad.location;
}

async function pageLink(db: DB, slug: string) {
  const context = testContext({ db });
  const page = unwrapResult(
    await listingLoader({ params: { slug }, context } as unknown as Args<typeof listingLoader>),
  );
  return (page.body.listing as { locationLink: { href: string | null; label: string | null } }).locationLink;
}

async function found(db: DB, query: string): Promise<number> {
  const body = (await (await listAdsResponse(db, new URLSearchParams(query))).json()) as {
    pagination: { total: number };
  };
  return body.pagination.total;
}

describeEachDatabase("the exact point stays private unless its owner shows it", (ctx) => {
  it("publishes a pasted map link only as a link to the point rounded to about 100 m", async () => {
    const { db } = ctx();
    const owner = await newOwner(db);
    const listing = await post(db, owner, { mapLink: EXACT_LINK, location: "" });

    for (const [label, body] of Object.entries(await publicOutputs(db, listing))) expectNoExactPoint(label, body);
    expect(await apiLocation(db, listing.slug)).toBe("https://www.google.com/maps/search/?api=1&query=6.884,79.876");
    expect((await pageLink(db, listing.slug)).href).toBe(
      "https://www.google.com/maps/search/?api=1&query=6.884,79.876",
    );
    // Nor can the exact digits be found by searching for them, one guess at a time.
    expect(await found(db, `search=${listing.word}`)).toBe(1);
    expect(await found(db, `search=${listing.word}&location=8842`)).toBe(0);
    expect(await found(db, `search=${listing.word}&location=79.8761`)).toBe(0);
    expect(await found(db, `search=${listing.word}+8761`)).toBe(0);

    // The owner still sees their own link on the edit form.
    const form = await findOwnerListingForm(db, owner.id, listing.id);
    expect(form?.values).toMatchObject({ mapLink: EXACT_LINK, exactPosition: "", location: "" });
  });

  it("rounds coordinates and drops links typed into the location text", async () => {
    const { db } = ctx();
    const owner = await newOwner(db);
    const typed = await post(db, owner, { location: "Near the temple, 6.8842, 79.8761" });
    const linked = await post(db, owner, { location: `Behind the bakery ${EXACT_LINK}` });
    const dms = await post(db, owner, { location: `6°53'03.1"N 79°52'34.0"E, lane by the school` });

    for (const listing of [typed, linked, dms])
      for (const [label, body] of Object.entries(await publicOutputs(db, listing))) expectNoExactPoint(label, body);
    expect(await pageLink(db, typed.slug)).toMatchObject({ label: "Near the temple, 6.884, 79.876" });
    expect(await pageLink(db, linked.slug)).toMatchObject({ label: "Behind the bakery" });
    expect(await pageLink(db, dms.slug)).toMatchObject({ label: "6.884N 79.876E, lane by the school" });
    expect(await found(db, `search=${typed.word}&location=8842`)).toBe(0);
    expect(await found(db, `search=${linked.word}+8761`)).toBe(0);

    const form = await findOwnerListingForm(db, owner.id, typed.id);
    expect(form?.values.location).toBe("Near the temple, 6.8842, 79.8761");
  });

  it("shows the owner's own link when they choose the exact point, and rounds it again when they stop", async () => {
    const { db } = ctx();
    const owner = await newOwner(db);
    const listing = await post(db, owner, { mapLink: EXACT_LINK, location: "", exactPosition: "1" });
    expect(await apiLocation(db, listing.slug)).toBe(EXACT_LINK);
    expect((await pageLink(db, listing.slug)).href).toBe(EXACT_LINK);

    const edit = (exactPosition: string) =>
      updateOwnerListing(
        db,
        listing.storage,
        owner,
        listing.id,
        { ...LISTING_FORM, title: listing.title, mapLink: EXACT_LINK, location: "", exactPosition },
        { files: [] },
      );
    expect((await edit("")).ok).toBe(true);
    for (const [label, body] of Object.entries(await publicOutputs(db, listing))) expectNoExactPoint(label, body);
    expect((await findOwnerListingForm(db, owner.id, listing.id))?.values.mapLink).toBe(EXACT_LINK);

    expect((await edit("1")).ok).toBe(true);
    expect(await apiLocation(db, listing.slug)).toBe(EXACT_LINK);
  });

  it("publishes no link that leads to the exact point when it cannot be rounded (a short link)", async () => {
    const { db } = ctx();
    const owner = await newOwner(db);
    const short = "https://maps.app.goo.gl/Zx8Pq2Lm9Rt";
    const listing = await post(db, owner, { mapLink: short, location: "" });
    for (const [label, body] of Object.entries(await publicOutputs(db, listing)))
      expect(body, label).not.toContain("Zx8Pq2Lm9Rt");
    expect(await apiLocation(db, listing.slug)).toBeNull();
    expect((await findOwnerListingForm(db, owner.id, listing.id))?.values.mapLink).toBe(short);
    // A link that names its place by text keeps the name, as a map search.
    const named = await post(db, owner, { mapLink: "https://maps.google.com/?q=Katubedda+Junction", location: "" });
    expect(await pageLink(db, named.slug)).toMatchObject({ label: "Katubedda Junction" });
  });
});
