import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { getAd, listAds } from "../../app/api/listings.server";
import type { DB } from "../../app/db/db.server";
import { findListingBySlug, insertListing } from "../../app/models/listing.server";
import { searchListings } from "../../app/models/listing-search.server";
import { recordConfirmation } from "../../app/models/phone-confirmation.server";
import { loadBrowsePage } from "../../app/pages/browse-page.server";
import { toListingView } from "../../app/pages/listing-page.server";
import { parseBrowseFilters } from "../../app/schemas/browse-filters";
import { insertTestOwner, listingInput } from "../factories";
import { describeEachDatabase } from "../test-db";

// ADR 080: what Bodima checked, read with the listing (the owner joined, the
// owner's standing confirmation of the ad's own number), and browse's
// 'Phone confirmed only' filter, on both databases. A confirmation counts
// only when it is the listing's owner's, of the ad's number, not ended
// (taken over) and made in the last 180 days (ADR 076).

const DAY = 24 * 60 * 60 * 1000;
let seq = 0;

type Made = { id: number; slug: string; title: string; ownerId: string; phone: string };

/** A listing with a number of its own, its owner made `ownerDaysAgo` days ago; `word` is in every title of one test. */
async function listingWithPhone(db: DB, word: string, ownerDaysAgo = 40, emailVerified = 0): Promise<Made> {
  const n = ++seq;
  const ownerId = `checks-${n}-${randomUUID()}`;
  const createdAt = new Date(Date.now() - ownerDaysAgo * DAY).toISOString();
  const owner = await insertTestOwner(db, ownerId, { createdAt });
  if (emailVerified) await db.updateTable("users").set({ emailVerified: 1 }).where("id", "=", ownerId).execute();
  const local = `0771${String((Date.now() + n) % 1_000_000).padStart(6, "0")}`;
  const title = `Room ${word} ${n}`;
  const { id, slug } = await insertListing(db, owner, listingInput({ title, contactPhone: local }));
  const row = await db.selectFrom("listings").select("contactPhoneE164").where("id", "=", id).executeTakeFirstOrThrow();
  return { id, slug, title, ownerId, phone: row.contactPhoneE164! };
}

/** A confirmation as a right code records it (ADR 076, 084), or one ended at once (taken over since). */
async function confirm(db: DB, userId: string, phone: string, daysAgo: number, ended = false) {
  const at = new Date(Date.now() - daysAgo * DAY);
  const confirmedAt = at.toISOString();
  if (ended)
    await db
      .insertInto("phone_confirmations")
      .values({ id: randomUUID(), userId, phone, confirmedAt, endedAt: confirmedAt })
      .execute();
  else await recordConfirmation(db, userId, phone, at);
  return confirmedAt;
}

async function phoneConfirmedTitles(db: DB, word: string): Promise<string[]> {
  const { filters } = parseBrowseFilters(new URLSearchParams({ search: word, phone: "confirmed" }));
  const { ads } = await searchListings(db, filters, { page: 1, limit: 50 });
  return ads.map((ad) => ad.title).sort();
}

describeEachDatabase("what Bodima checked", (ctx) => {
  it("reads each check with its date, and only what is true", async () => {
    const { db } = ctx();
    const word = `chk${Date.now().toString(36)}a`;
    const checked = await listingWithPhone(db, word, 40, 1);
    const confirmedAt = await confirm(db, checked.ownerId, checked.phone, 10);
    const photosCheckedAt = new Date(Date.now() - 2 * DAY).toISOString();
    await db.updateTable("listings").set({ photosCheckedAt }).where("id", "=", checked.id).execute();
    const plain = await listingWithPhone(db, word, 3);

    const found = (await findListingBySlug(db, checked.slug))!;
    expect(found.checks).toMatchObject({
      phoneConfirmedAt: confirmedAt,
      emailConfirmed: true,
      photosCheckedAt,
    });
    expect(Date.parse(found.checks.memberSince!)).toBeLessThan(Date.now() - 39 * DAY);
    // Posted just now: its availability was confirmed today (ADR 056).
    expect(Date.now() - Date.parse(found.checks.availabilityConfirmedAt!)).toBeLessThan(60_000);

    const nothing = (await findListingBySlug(db, plain.slug))!;
    expect(nothing.checks).toMatchObject({ phoneConfirmedAt: null, emailConfirmed: false, photosCheckedAt: null });

    // The page's panel: dated lines, and always what nobody checked.
    const view = toListingView(found, 0);
    expect(view.checks.heading).toBe("What Bodima checked");
    expect(view.checks.lines[0]).toMatch(/^Phone number confirmed by SMS on \d{1,2} [A-Z][a-z]{2} \d{4}$/);
    expect(view.checks.lines).toContain("Email address confirmed");
    expect(view.checks.lines.some((l) => /^Photos checked on .+: not found in any other owner's ad$/.test(l))).toBe(
      true,
    );
    expect(view.checks.lines.some((l) => /^On Bodima since [A-Z][a-z]+ \d{4}$/.test(l))).toBe(true);
    expect(view.checks.lines).toContain("Availability confirmed today");
    expect(view.checks.notChecked).toBe("Nobody from Bodima has visited this place or met the owner.");
    const bare = toListingView(nothing, 0).checks;
    expect(bare.lines.some((l) => l.startsWith("Phone") || l.startsWith("Email") || l.startsWith("Photos"))).toBe(
      false,
    );
    expect(bare.notChecked).toBe("Nobody from Bodima has visited this place or met the owner.");

    // While phone confirmation is off the page says nothing of the phone.
    const off = toListingView(found, 0, "en", null, { siteName: "Bodima", phonesEnabled: false });
    expect(off.checks.lines.some((l) => l.startsWith("Phone"))).toBe(false);
  });

  it("'Phone confirmed only' keeps the owner's standing confirmation of the ad's own number", async () => {
    const { db } = ctx();
    const word = `chk${Date.now().toString(36)}b`;
    const standing = await listingWithPhone(db, word);
    await confirm(db, standing.ownerId, standing.phone, 179);
    const lapsed = await listingWithPhone(db, word);
    await confirm(db, lapsed.ownerId, lapsed.phone, 181);
    const ended = await listingWithPhone(db, word);
    await confirm(db, ended.ownerId, ended.phone, 5, true);
    // Another account confirmed this ad's number: not its owner's confirmation.
    const othersNumber = await listingWithPhone(db, word);
    const other = await insertTestOwner(db, `checks-other-${randomUUID()}`);
    await confirm(db, other.id, othersNumber.phone, 5);
    // The owner confirmed another number than the ad's.
    const otherNumber = await listingWithPhone(db, word);
    await confirm(db, otherNumber.ownerId, "+94779999999", 5);

    expect(await phoneConfirmedTitles(db, word)).toEqual([standing.title]);
    for (const made of [lapsed, ended, othersNumber, otherNumber]) {
      const found = (await findListingBySlug(db, made.slug))!;
      expect(found.checks.phoneConfirmedAt, made.slug).toBeNull();
    }
    // Without a search too (the filter on its own walks the listings, not a text index).
    const { filters } = parseBrowseFilters(new URLSearchParams({ phone: "confirmed" }));
    const { ads } = await searchListings(db, filters, { page: 1, limit: 50 });
    expect(ads.length).toBeGreaterThan(0);
    expect(ads.every((ad) => ad.checks.phoneConfirmedAt !== null)).toBe(true);
    expect(ads.some((ad) => ad.title === standing.title)).toBe(true);
  });

  it("the API carries each check with its date; off, no phone check and no phone filter", async () => {
    const { db } = ctx();
    const word = `chk${Date.now().toString(36)}c`;
    const confirmed = await listingWithPhone(db, word);
    const confirmedAt = await confirm(db, confirmed.ownerId, confirmed.phone, 1);
    await listingWithPhone(db, word);

    const list = await listAds(db, new URLSearchParams({ search: word, phone: "confirmed" }));
    if (!list.ok) throw new Error("expected a page");
    expect(list.body.ads.map((ad) => ad.slug)).toEqual([confirmed.slug]);
    expect(list.body.ads[0].checks).toMatchObject({
      phoneConfirmedAt: confirmedAt,
      emailConfirmed: false,
      photosCheckedAt: null,
    });
    const one = await getAd(db, confirmed.slug);
    if (!one.ok) throw new Error("expected the ad");
    expect(one.body.ad.checks.phoneConfirmedAt).toBe(confirmedAt);
    expect(Object.keys(one.body.ad.checks).sort()).toEqual([
      "availabilityConfirmedAt",
      "emailConfirmed",
      "memberSince",
      "phoneConfirmedAt",
      "photosCheckedAt",
    ]);

    // Phone confirmation off: the parameter is ignored and no ad says its phone was confirmed.
    const off = await listAds(db, new URLSearchParams({ search: word, phone: "confirmed" }), {}, false);
    if (!off.ok) throw new Error("expected a page");
    expect(off.body.ads).toHaveLength(2);
    expect(off.body.ads.every((ad) => ad.checks.phoneConfirmedAt === null)).toBe(true);
    const oneOff = await getAd(db, confirmed.slug, false);
    if (!oneOff.ok) throw new Error("expected the ad");
    expect(oneOff.body.ad.checks.phoneConfirmedAt).toBeNull();
    // A wrong value is refused as other filters' are.
    expect((await listAds(db, new URLSearchParams({ phone: "yes" }))).status).toBe(400);
  });

  it("browse offers the filter as a box and a chip, and cards at most two badges; hidden while off", async () => {
    const { db } = ctx();
    const word = `chk${Date.now().toString(36)}d`;
    const made = await listingWithPhone(db, word, 40, 1);
    await confirm(db, made.ownerId, made.phone, 2);
    await db
      .updateTable("listings")
      .set({ photosCheckedAt: new Date().toISOString() })
      .where("id", "=", made.id)
      .execute();
    await listingWithPhone(db, word);
    const site = { siteName: "Bodima", siteUrl: "http://127.0.0.1:3999" };
    const url = new URL(`http://127.0.0.1:3999/browse?search=${word}&phone=confirmed`);

    const on = await loadBrowsePage(db, url, {}, site, true);
    expect(on.ads.map((ad) => ad.slug)).toEqual([made.slug]);
    expect(on.ads[0].badges).toEqual(["Phone confirmed", "Photos checked"]);
    const box = on.filterForm.facts.boxes.find((b) => b.name === "phone");
    expect(box).toMatchObject({ label: "Phone confirmed only", value: "confirmed", checked: true });
    const chip = on.chips.find((c) => c.key === "phone");
    expect(chip?.label).toBe("Phone confirmed only");
    expect(chip?.href).toBe(`/browse?search=${word}`);

    const off = await loadBrowsePage(db, url, {}, site, false);
    expect(off.ads).toHaveLength(2);
    expect(off.filterForm.facts.boxes.some((b) => b.name === "phone")).toBe(false);
    expect(off.chips.some((c) => c.key === "phone")).toBe(false);
    expect(off.ads.find((ad) => ad.slug === made.slug)?.badges).toEqual(["Photos checked"]);
  });
});
