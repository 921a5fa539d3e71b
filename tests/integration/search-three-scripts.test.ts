import { beforeAll, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { insertListing } from "../../app/models/listing.server";
import { searchListings } from "../../app/models/listing-search.server";
import type { BrowseFilters } from "../../app/schemas/browse-filters";
import type { NewListingInput } from "../../app/schemas/listing-form";
import { insertTestOwner, listingInput } from "../factories";
import { describeEachDatabase } from "../test-db";

// Search over listings written in Sinhala, Tamil and English (ADR 029).

const NOW = new Date("2026-12-01T12:00:00.000Z");
const HOUR = 60 * 60 * 1000;
const owner = { id: "script-owner", email: "script-owner@example.com" };
const ZWJ = "\u200d";

/** Fixtures by name, newest first (each an hour older than the one before). */
const FIXTURES: Record<string, NewListingInput> = {
  // 'ශ්‍රී' in a description, written with the zero-width joiner Sinhala uses in the conjunct.
  sinhalaNewer: listingInput({
    title: "නුගේගොඩ ඇනෙක්ස්",
    description: `ශ්${ZWJ}රී ලංකාවේ හොඳම ස්ථානය. මල් වත්තක් ඇත. කොළඹට ළඟයි.`,
    university: "University of Sri Jayewardenepura",
    city: "nugegoda",
  }),
  sinhalaRoom: listingInput({
    title: `ශ්${ZWJ}රී ජයවර්ධනපුර කැම්පස් අසල බෝඩිම් කාමරය`,
    description: "කාමරයට සම්බන්ධ නාන කාමරයක් ඇත.",
    university: "University of Sri Jayewardenepura",
    city: "nugegoda",
  }),
  // 'මාලබේ' differs from 'මල්' (above) in a vowel sign only at its start.
  sinhalaMalabe: listingInput({
    title: "මාලබේ ගෙදර කාමර දෙකක්",
    // 'කොළඹට' as some keyboards type it: the vowel sign ො in two parts (ෙ + ා).
    description: "ක\u0dd9\u0dcfළඹට බස් ඇත.",
    university: "University of Moratuwa",
    city: "moratuwa",
  }),
  tamilRoom: listingInput({
    title: "யாழ்ப்பாணம் பல்கலைக்கழகம் அருகில் அறை",
    description: "மாணவிகளுக்கு மட்டும். படம் பார்க்க வசதி.",
    university: "University of Jaffna",
    city: "jaffna",
  }),
  // 'பாடம்' (a lesson) differs from 'படம்' (a picture) in one vowel sign.
  tamilHouse: listingInput({
    title: "அமைதியான வீடு",
    description: "பாடம் படிக்க நல்ல இடம்.",
    university: "University of Jaffna",
    city: "jaffna",
  }),
  english: listingInput({
    title: "Quiet room near campus",
    description: "Café downstairs, bright desk.",
    university: "University of Moratuwa",
    city: "moratuwa",
  }),
};

async function seed(db: DB): Promise<Map<string, number>> {
  await insertTestOwner(db, owner.id, { email: owner.email, createdAt: NOW.toISOString() });
  const ids = new Map<string, number>();
  for (const [index, [name, listing]] of Object.entries(FIXTURES).entries()) {
    const { id } = await insertListing(db, owner, listing, new Date(NOW.getTime() - (index + 1) * HOUR));
    ids.set(name, id);
  }
  return ids;
}

describeEachDatabase("search in Sinhala, Tamil and English", (ctx) => {
  let ids: Map<string, number>;

  beforeAll(async () => {
    ids = await seed(ctx().db);
  });

  /** Fixture names found, in result order. */
  async function names(filters: BrowseFilters): Promise<string[]> {
    const { ads } = await searchListings(ctx().db, filters, { page: 1, limit: 50, now: NOW });
    const byId = new Map([...ids].map(([name, id]) => [String(id), name]));
    return ads.map((ad) => byId.get(ad.id) ?? ad.title);
  }

  it("finds a Sinhala listing by a whole word and by the start of a word", async () => {
    expect(await names({ search: "කාමරය" })).toEqual(["sinhalaRoom"]);
    expect(await names({ search: "බෝඩිම්" })).toEqual(["sinhalaRoom"]);
    expect(await names({ search: "බෝඩි" })).toEqual(["sinhalaRoom"]);
    expect(await names({ search: "ජයවර්" })).toEqual(["sinhalaRoom"]);
    expect(await names({ search: "කැම්පස් කාමර" })).toEqual(["sinhalaRoom"]);
  });

  it("finds a Tamil listing by a whole word and by the start of a word", async () => {
    expect(await names({ search: "அறை" })).toEqual(["tamilRoom"]);
    expect(await names({ search: "யாழ்ப்பாணம்" })).toEqual(["tamilRoom"]);
    expect(await names({ search: "யாழ்ப்" })).toEqual(["tamilRoom"]);
    expect(await names({ search: "பல்கலை" })).toEqual(["tamilRoom"]);
  });

  it("does not take a word for another that differs in a vowel sign", async () => {
    expect(await names({ search: "මල්" })).toEqual(["sinhalaNewer"]);
    expect(await names({ search: "මල" })).toEqual(["sinhalaNewer"]);
    expect(await names({ search: "මාල" })).toEqual(["sinhalaMalabe"]);
    expect(await names({ search: "බෝම" })).toEqual([]);
    expect(await names({ search: "படம்" })).toEqual(["tamilRoom"]);
    expect(await names({ search: "பாடம்" })).toEqual(["tamilHouse"]);
  });

  it("finds a conjunct with or without the zero-width joiner, title matches first", async () => {
    const bothWays = [`ශ්${ZWJ}රී`, "ශ්රී"];
    for (const search of bothWays) expect(await names({ search })).toEqual(["sinhalaRoom", "sinhalaNewer"]);
    for (const search of bothWays) {
      expect(await names({ search, sort: "newest" })).toEqual(["sinhalaNewer", "sinhalaRoom"]);
    }
  });

  it("finds a word whether its vowel sign was typed whole or in two parts", async () => {
    for (const search of ["කොළඹ", "ක\u0dd9\u0dcfළඹ"]) {
      expect(await names({ search })).toEqual(["sinhalaNewer", "sinhalaMalabe"]);
      expect(await names({ search: `${search} බස්`, university: "University of Moratuwa" })).toEqual(["sinhalaMalabe"]);
    }
  });

  it("mixes scripts in one search, with the other filters", async () => {
    expect(await names({ search: "அறை jaffna" })).toEqual(["tamilRoom"]);
    expect(await names({ search: "கழகம் jaffna" })).toEqual([]);
    expect(await names({ search: "කාමර", university: "University of Moratuwa" })).toEqual(["sinhalaMalabe"]);
  });

  it("still finds English words as before, and no Sinhala or Tamil listing for them", async () => {
    expect(await names({ search: "quiet" })).toEqual(["english"]);
    expect(await names({ search: "des" })).toEqual(["english"]);
    expect(await names({ search: "room near bright" })).toEqual(["english"]);
  });

  it("keeps the index in step when a listing's text changes or it is deleted", async () => {
    const { db } = ctx();
    const id = ids.get("tamilHouse") as number;
    await db.updateTable("listings").set({ description: "புதிய வீடு" }).where("id", "=", id).execute();
    expect(await names({ search: "பாடம்" })).toEqual([]);
    expect(await names({ search: "புதிய" })).toEqual(["tamilHouse"]);
    await db.deleteFrom("listings").where("id", "=", id).execute();
    expect(await names({ search: "புதிய" })).toEqual([]);
    expect(await names({ search: "அறை" })).toEqual(["tamilRoom"]);
  });
});
