import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { currentTime, setClock } from "../../app/lib/clock";
import { createMemoryStore, createRateLimiter } from "../../app/limits/rate-limit.server";
import { phoneCodeText } from "../../app/mail/phone-code-text.server";
import { insertListing } from "../../app/models/listing.server";
import { renewOwnerListing } from "../../app/models/listing-availability.server";
import { searchListings } from "../../app/models/listing-search.server";
import { createOwnerListing, type ListingOwner, updateOwnerListing } from "../../app/models/owner-listings.server";
import { createPhoneConfirmation } from "../../app/models/phone-confirmation.server";
import { smsProviderFor } from "../../app/sms/sms-provider.server";
import type { PhotoStorage } from "../../app/storage/storage.server";
import { insertTestOwner, listingInput } from "../factories";
import { LISTING_FORM } from "../owner-fixtures";
import { uniquePhone } from "../owner-session";
import { type LabelledPhoto, originalPhotos } from "../photo-fixtures";
import { type SmsGateway, startSmsGateway } from "../sms-gateway";
import { tempPhotoStorage } from "../temp-photo-storage";
import { describeEachDatabase } from "../test-db";

// ADR 084: browse's 'Phone confirmed only' reads `listings.phoneConfirmedUntil`,
// kept true wherever it can change: a code entered (the confirming owner's ads
// with the number, and another owner's whose confirmation that ended), an ad
// posted or its number edited, and 180 days passing on the clock. Asserted
// through what a student's browse finds, with the filter alone and with a
// search, on both databases.

const START = new Date("2026-12-01T08:00:00.000Z");
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let gateway: SmsGateway;
/** A photo of its own for each ad: another owner's photo would hold the ad for review (ADR 074). */
let photos: LabelledPhoto[];
beforeAll(async () => {
  gateway = await startSmsGateway();
  photos = await originalPhotos(6, 8401);
});
afterAll(() => gateway.close());
afterEach(() => setClock(undefined));

const at = (ms: number) => setClock(new Date(ms).toISOString());

describeEachDatabase("'Phone confirmed only' follows each confirmation", (ctx) => {
  let db: DB;
  let storage: PhotoStorage;
  let seq = 0;
  let photosUsed = 0;
  let word: string;

  /** Each test: its database, its words, its photo folder, the clock at START. */
  function begin(tag: string) {
    db = ctx().db;
    word = `pcf${Date.now().toString(36)}${tag}`;
    storage = tempPhotoStorage().storage;
    at(START.getTime());
  }

  const phones = () =>
    createPhoneConfirmation({
      db,
      sms: smsProviderFor(gateway.notifyLkUrl, db),
      limiter: createRateLimiter(createMemoryStore(), {}, () => currentTime().getTime()),
      secret: "s".repeat(64),
      dailyBudget: 10_000,
      codeText: phoneCodeText,
    });

  /** Confirms `phone` for the owner by the texted code, at the clock's time. */
  async function confirm(owner: { id: string }, phone: string) {
    const service = phones();
    const asked = await service.requestCode(owner, phone, "203.0.113.9", "en");
    expect(asked).toMatchObject({ ok: true, status: "sent" });
    const e164 = `+94${phone.slice(1)}`;
    const done = await service.confirmCode(owner, phone, gateway.lastCode(e164)!);
    if (!done.ok) throw new Error(done.code);
    return done;
  }

  async function owner(): Promise<ListingOwner> {
    const made = await insertTestOwner(db, `phone-filter-${++seq}-${Date.now()}`);
    return { ...made, name: "Owner" };
  }

  /** A posted ad with `phone`, through the post form's model (one photo). */
  async function post(by: ListingOwner, phone: string) {
    const photo = photos[photosUsed++ % photos.length].data;
    const form = { ...LISTING_FORM, title: `Room ${word} ${++seq}`, contactPhone: phone };
    const posted = await createOwnerListing(db, storage, by, form, { files: [photo] }, currentTime());
    if (!posted.ok) throw new Error(posted.code);
    expect(posted.held).toBe(false);
    return { id: posted.listing.id, form };
  }

  async function edit(by: ListingOwner, ad: { id: number; form: Record<string, string> }, phone: string) {
    const edited = await updateOwnerListing(
      db,
      storage,
      by,
      ad.id,
      { ...ad.form, contactPhone: phone },
      { files: [] },
      currentTime(),
    );
    if (!edited.ok) throw new Error(edited.code);
  }

  /** Which of `ids` browse shows under 'Phone confirmed only', alone and with a search; both must agree. */
  async function shown(...ids: number[]): Promise<number[]> {
    const found = async (search?: string) => {
      const { ads } = await searchListings(db, { phone: "confirmed", search }, { page: 1, limit: 100 });
      return ads.map((ad) => Number(ad.id)).filter((id) => ids.includes(id));
    };
    const alone = (await found()).sort((a, b) => a - b);
    expect(await found(word).then((list) => list.sort((a, b) => a - b))).toEqual(alone);
    return alone;
  }

  it("a code entered, a number edited away and back, a post with a confirmed number, 180 days", async () => {
    begin("a");
    const landlord = await owner();
    const number = uniquePhone();
    const first = await post(landlord, number);
    expect(await shown(first.id)).toEqual([]);

    const confirmed = await confirm(landlord, number);
    expect(await shown(first.id)).toEqual([first.id]);

    // Posted with the number already confirmed: shown at once.
    const second = await post(landlord, number);
    expect(await shown(first.id, second.id)).toEqual([first.id, second.id]);

    // Edited to a number not confirmed, then back.
    await edit(landlord, first, uniquePhone());
    expect(await shown(first.id, second.id)).toEqual([second.id]);
    await edit(landlord, first, number);
    expect(await shown(first.id, second.id)).toEqual([first.id, second.id]);

    // 180 days on the clock (the ads renewed, so they are still listed): the badge lapses by itself.
    const lapse = Date.parse(confirmed.lapsesAt);
    at(lapse - DAY);
    for (const ad of [first, second]) expect((await renewOwnerListing(db, landlord.id, ad.id)).ok).toBe(true);
    at(lapse - MINUTE);
    expect(await shown(first.id, second.id)).toEqual([first.id, second.id]);
    at(lapse + MINUTE);
    expect(await shown(first.id, second.id)).toEqual([]);
  });

  it("another account confirming the number takes it from the first owner's ads", async () => {
    begin("b");
    const first = await owner();
    const number = uniquePhone();
    await confirm(first, number);
    const old = await post(first, number);
    expect(await shown(old.id)).toEqual([old.id]);

    // A month on, the ad expired and the first owner holds the number no more (ADR 076).
    at(START.getTime() + 31 * DAY);
    const second = await owner();
    await confirm(second, number);
    const taken = await post(second, number);
    expect(await shown(old.id, taken.id)).toEqual([taken.id]);
    // Renewed, the first owner's ad is listed again, without the badge its owner no longer has.
    expect((await renewOwnerListing(db, first.id, old.id)).ok).toBe(true);
    expect(await shown(old.id, taken.id)).toEqual([taken.id]);
  });

  it("an ad posted by the model alone takes its owner's standing confirmation", async () => {
    begin("c");
    const landlord = await owner();
    const number = uniquePhone();
    await confirm(landlord, number);
    const { id } = await insertListing(db, landlord, listingInput({ title: `Room ${word}`, contactPhone: number }));
    const other = await insertListing(
      db,
      landlord,
      listingInput({ title: `Room ${word} 2`, contactPhone: uniquePhone() }),
    );
    expect(await shown(id, other.id)).toEqual([id]);
  });

  it("counts and pages from the filter's own indexes, which hold only ads with a confirmed number", async () => {
    db = ctx().db;
    const { dialect } = ctx();
    const now = START.toISOString();
    if (dialect === "postgres") {
      const { rows } = await sql<{ indexname: string; indexdef: string }>`
        select indexname, indexdef from pg_indexes where indexname like 'listings_phone_confirmed%'
        order by indexname`.execute(db);
      expect(rows.map((r) => r.indexname)).toEqual([
        "listings_phone_confirmed_idx",
        "listings_phone_confirmed_newest_idx",
      ]);
      for (const { indexdef } of rows) expect(indexdef).toMatch(/WHERE \("phoneConfirmedUntil" IS NOT NULL\)$/);
      return;
    }
    const plan = async (query: ReturnType<typeof sql>) =>
      (await sql<{ detail: string }>`explain query plan ${query}`.execute(db)).rows.map((r) => r.detail).join(" | ");
    const matches = sql`status = 'active' and +"expiresAt" > ${now} and "phoneConfirmedUntil" > ${now}`;
    // The shapes of the count and of a page the planner picks (listing-search.server.ts): no table row, no sort.
    expect(await plan(sql`select count(*) from (select id from listings where ${matches} limit 10001)`)).toMatch(
      /COVERING INDEX listings_phone_confirmed_idx \(status=\? AND phoneConfirmedUntil>\?\)/,
    );
    const page = await plan(sql`select id from listings where ${matches} order by "createdAt" desc, id desc limit 20`);
    expect(page).toMatch(/COVERING INDEX listings_phone_confirmed_newest_idx/);
    expect(page).not.toMatch(/TEMP B-TREE/);
  });
});
