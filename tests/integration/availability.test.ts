import { afterEach, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { setClock } from "../../app/lib/clock";
import { findListingBySlug, insertListing, searchListings } from "../../app/models/listing.server";
import { hideListing } from "../../app/models/listing-moderation.server";
import { listOwnerListings, markOwnerListingLet, renewOwnerListing } from "../../app/models/owner-listings.server";
import { toListingView } from "../../app/pages/listing-page.server";
import { parseBrowseFilters } from "../../app/schemas/browse-filters";
import { insertTestOwner, listingInput } from "../factories";
import { describeEachDatabase } from "../test-db";
import "virtual:catalogue/listing-server";

// Issue 13, point 4: availability confirmed (posting, renewing and 'Still
// available' are the same act) and 'No longer available' (status 'let').

afterEach(() => setClock(undefined));

const DAY = 24 * 60 * 60 * 1000;
let seq = 0;

/** Moves the app's clock to `at` (setClock takes ISO text). */
const clockAt = (at: Date) => setClock(at.toISOString());

async function ownListing(db: DB, start: Date) {
  clockAt(start);
  const owner = await insertTestOwner(db, `avail-${++seq}-${Date.now()}`);
  const word = `availword${seq}x${Date.now().toString(36)}`;
  const { id, slug } = await insertListing(db, owner, listingInput({ title: `Annex ${word}` }));
  return { owner, id, slug, word };
}

const inBrowse = async (db: DB, word: string) =>
  (
    await searchListings(db, parseBrowseFilters(new URLSearchParams({ search: word })).filters, {
      page: 1,
      limit: 10,
    })
  ).ads.length;

describeEachDatabase("availability", (ctx) => {
  it("shows how long ago the owner confirmed it: posting, then 'Still available'", async () => {
    const { db } = ctx();
    const start = new Date("2026-12-01T08:00:00Z");
    const { owner, id, slug } = await ownListing(db, start);
    const line = async () => toListingView((await findListingBySlug(db, slug))!, 0).confirmedLine;
    expect(await line()).toBe("Availability confirmed today");
    clockAt(new Date(start.getTime() + DAY + 60_000));
    expect(await line()).toBe("Availability confirmed 1 day ago");
    clockAt(new Date(start.getTime() + 12 * DAY + 60_000));
    expect(await line()).toBe("Availability confirmed 12 days ago");
    expect((await renewOwnerListing(db, owner.id, id)).ok).toBe(true);
    expect(await line()).toBe("Availability confirmed today");
  });

  it("'No longer available' takes it out of browse at once; its page says so; 'Still available' brings it back", async () => {
    const { db } = ctx();
    const { owner, id, slug, word } = await ownListing(db, new Date("2026-12-01T08:00:00Z"));
    expect(await inBrowse(db, word)).toBe(1);
    expect((await markOwnerListingLet(db, owner.id, id)).ok).toBe(true);
    expect(await inBrowse(db, word)).toBe(0);
    const page = (await findListingBySlug(db, slug))!;
    expect(page).toMatchObject({ isLet: true, isPublic: false, isExpired: false, status: "let" });
    expect((await listOwnerListings(db, owner.id)).find((ad) => ad.id === id)?.status).toBe("let");

    clockAt(new Date("2026-12-05T08:00:00Z"));
    expect((await renewOwnerListing(db, owner.id, id)).ok).toBe(true);
    expect(await inBrowse(db, word)).toBe(1);
    const back = (await findListingBySlug(db, slug))!;
    expect(back).toMatchObject({ isLet: false, isPublic: true, status: "active" });
    // Brought back on the 5th: confirmed then, up for 30 days from then.
    expect(back.expiresAt).toBe("2027-01-04T08:00:00.000Z");
  });

  it("an expired ad can be marked let too; a hidden one cannot, and nobody else's", async () => {
    const { db } = ctx();
    const expired = await ownListing(db, new Date("2026-10-01T08:00:00Z"));
    clockAt(new Date("2026-12-01T08:00:00Z"));
    expect((await markOwnerListingLet(db, expired.owner.id, expired.id)).ok).toBe(true);

    const hidden = await ownListing(db, new Date("2026-12-01T08:00:00Z"));
    await hideListing(db, null, hidden.id, "test");
    expect(await markOwnerListingLet(db, hidden.owner.id, hidden.id)).toMatchObject({
      ok: false,
      code: "listing.hidden",
    });

    const theirs = await ownListing(db, new Date("2026-12-01T08:00:00Z"));
    const stranger = await insertTestOwner(db, `avail-stranger-${Date.now()}`);
    expect(await markOwnerListingLet(db, stranger.id, theirs.id)).toMatchObject({
      ok: false,
      code: "listing.not_found",
    });
    expect((await findListingBySlug(db, theirs.slug))?.isLet).toBe(false);
  });
});
