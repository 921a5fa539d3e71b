import { sql } from "kysely";
import { expect, it } from "vitest";
import * as searchWordsMigration from "../../app/db/migrations/2026-11-24-014-search-words";
import { insertListing } from "../../app/models/listing.server";
import { searchListings } from "../../app/models/listing-search.server";
import { insertTestOwner, listingInput, type TestOwner } from "../factories";
import { describeEachDatabase } from "../test-db";

// PostgreSQL spells a search prefix out as the exact words that start with it,
// from the list of words its index has seen (migration 014, ADR 046). These
// check that the list never misses a word a listing has, however it got there;
// on SQLite (FTS5's own prefix index) the same searches must find the same.

const NOW = new Date("2026-12-01T12:00:00.000Z");

describeEachDatabase("search by prefix through the word list", (ctx) => {
  let owner: TestOwner | undefined;
  const listing = async (title: string, description = "A quiet room for one student.") => {
    const { db } = ctx();
    owner ??= await insertTestOwner(db, "words-owner", { createdAt: NOW.toISOString() });
    const { id } = await insertListing(
      db,
      owner,
      listingInput({ title, description, location: "Katubedda", university: "University of Moratuwa" }),
      NOW,
    );
    return id;
  };
  /** On PostgreSQL, whether the word list has the word (a search would still find it without: ADR 046). */
  const listed = async (word: string) => {
    const { db, dialect } = ctx();
    if (dialect !== "postgres") return true;
    const { rows } = await sql`select 1 from search_words where word = ${word}`.execute(db);
    return rows.length === 1;
  };
  const found = async (search: string) =>
    (await searchListings(ctx().db, { search }, { page: 1, limit: 50, now: NOW })).ads
      .map((ad) => Number(ad.id))
      .sort();

  it("finds a new listing's words by their beginnings", async () => {
    const id = await listing("Xylophonic annex near the lake");
    expect(await listed("xylophonic")).toBe(true);
    expect(await found("xylo")).toEqual([id]);
    expect(await found("xylo lak")).toEqual([id]);
    expect(await found("xylo lakx")).toEqual([]);
  });

  it("finds the words an edit brings, and no longer the words it took away", async () => {
    const { db } = ctx();
    const id = await listing("Quokkaville single room");
    await db.updateTable("listings").set({ title: "Wombatton single room" }).where("id", "=", id).execute();
    expect(await listed("wombatton")).toBe(true);
    expect(await found("wombat")).toEqual([id]);
    expect(await found("quokka")).toEqual([]);
  });

  it("finds every listing when a prefix begins more words than it spells out", async () => {
    const ids: number[] = [];
    // 40 different words starting 'zebu': more than PostgreSQL spells out, so it matches the prefix itself.
    for (let i = 0; i < 40; i++) ids.push(await listing(`Zebu${String.fromCharCode(97 + (i % 26))}${i} room`));
    expect(await found("zebu")).toEqual(ids.sort());
    expect(await found("zebua0")).toEqual([ids[0]]);
  });

  it("finds a word that carries a quote or a backslash in the index", async () => {
    const id = await listing("Gardenview room", "Owner's e-mail: oak\\tree@example.lk, gate code o'brien");
    expect(await found("gardenv oak")).toEqual([id]);
    expect(await found("gardenv brien")).toEqual([id]);
  });

  it("knows the words of listings written before the list existed (PostgreSQL)", async () => {
    const { db, dialect } = ctx();
    if (dialect !== "postgres") return;
    await searchWordsMigration.down(db);
    const id = await listing("Narwhalside annex");
    await searchWordsMigration.up(db);
    expect(await listed("narwhalside")).toBe(true);
    expect(await found("narwhal")).toEqual([id]);
  });
});
