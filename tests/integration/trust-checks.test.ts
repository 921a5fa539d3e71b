import sharp from "sharp";
import { beforeAll, beforeEach, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { insertListing } from "../../app/models/listing.server";
import { openHoldSignals } from "../../app/models/listing-review.server";
import { listOwnerListings } from "../../app/models/owner-listing-reads.server";
import {
  createOwnerListing,
  deleteOwnerListing,
  type ListingOwner,
  updateOwnerListing,
} from "../../app/models/owner-listings.server";
import { forgetTypicalRents } from "../../app/models/price-context.server";
import type { PhotoStorage } from "../../app/storage/storage.server";
import { insertTestOwner, listingInput } from "../factories";
import { LISTING_FORM } from "../owner-fixtures";
import { EDITS, type LabelledPhoto, originalPhotos } from "../photo-fixtures";
import { type Made, NOWHERE, publicView, VISIBLE } from "../public-view";
import { tempPhotoStorage } from "../temp-photo-storage";
import { describeEachDatabase } from "../test-db";

// The trust checks on posting and editing (ADR 082): a photo of another
// owner's ad or a scam text holds the listing for review in the post's own
// transaction; a clean post is live with its photos' check date.

let photos: LabelledPhoto[];
beforeAll(async () => {
  // Only the generated rooms are used (the first 12): the seed's drawn scenes after them look alike by design.
  photos = await originalPhotos(12, 9001);
});
beforeEach(() => forgetTypicalRents());

let seq = 0;
/** An owner with a phone of their own, so no test trips the 'phone shared by new accounts' rule by chance. */
async function newOwner(db: DB, ip: string | null = null): Promise<ListingOwner> {
  const n = ++seq;
  const { id, email } = await insertTestOwner(db, `checks-${n}-${crypto.randomUUID().slice(0, 8)}`);
  const phone = `071${String(1_000_000 + n * 7919 + Math.floor(Math.random() * 1000)).slice(-7)}`;
  await db.updateTable("users").set({ phone }).where("id", "=", id).execute();
  return { id, email, name: "Nimal Perera", phone, ip };
}

/** A copier's version of a photo: edited (half size unless told), then saved again as a JPEG. */
async function copyOf(photo: Buffer, edit = "half size"): Promise<Buffer> {
  const edited = await EDITS.find((e) => e.name === edit)!.apply(photo);
  return sharp(edited).jpeg({ quality: 70 }).toBuffer();
}

const word = () => `chk${++seq}x${Date.now().toString(36)}`;

type Posted = Made & { held: boolean };

/** Posts through the model as the post form does; `word` in the title finds it in search. */
async function post(
  db: DB,
  storage: PhotoStorage,
  owner: ListingOwner,
  files: Buffer[],
  fields: Partial<Record<keyof typeof LISTING_FORM, string>> = {},
): Promise<Posted> {
  const w = word();
  const result = await createOwnerListing(
    db,
    storage,
    owner,
    { ...LISTING_FORM, title: `Room ${w}`, ...fields },
    { files },
  );
  if (!result.ok) throw new Error(result.code);
  const photo = await db
    .selectFrom("listing_photos")
    .select(["id", "variants"])
    .where("listingId", "=", result.listing.id)
    .orderBy("position")
    .executeTakeFirstOrThrow();
  const [smallest] = JSON.parse(photo.variants) as { key: string }[];
  return { ...result.listing, word: w, photo: smallest.key, photoId: photo.id, held: result.held };
}

async function stateOf(db: DB, id: number) {
  const row = await db
    .selectFrom("listings")
    .select(["status", "photosCheckedAt"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return { ...row, signals: (await openHoldSignals(db, [id])).get(id) ?? null };
}

describeEachDatabase("trust checks on posting and editing", (ctx) => {
  it("holds a second owner's ad with another owner's photo, resized and recompressed; the owner's own reuse is fine", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const now = new Date();
    const original = await newOwner(db);
    const first = await post(db, storage, original, [photos[0].data, photos[1].data]);
    expect(first.held).toBe(false);
    const clean = await stateOf(db, first.id);
    expect(clean).toMatchObject({ status: "active", signals: null });
    expect(new Date(clean.photosCheckedAt!).getTime()).toBeGreaterThanOrEqual(now.getTime() - 1000);
    expect(await publicView(db, storage, first)).toEqual(VISIBLE);

    const copier = await newOwner(db);
    const copy = await post(db, storage, copier, [photos[2].data, await copyOf(photos[0].data)]);
    expect(copy.held).toBe(true);
    const held = await stateOf(db, copy.id);
    expect(held.status).toBe("pending");
    expect(held.photosCheckedAt).toBeNull();
    const copiedPhoto = await db
      .selectFrom("listing_photos")
      .select("id")
      .where("listingId", "=", copy.id)
      .where("position", "=", 1)
      .executeTakeFirstOrThrow();
    expect(held.signals).toEqual([
      {
        kind: "photo-match",
        photoId: copiedPhoto.id,
        otherListingId: first.id,
        otherPhotoId: first.photoId,
        distance: expect.any(Number),
      },
    ]);
    expect(await publicView(db, storage, copy)).toEqual(NOWHERE);
    const [mine] = await listOwnerListings(db, copier.id);
    expect(mine).toMatchObject({ id: copy.id, status: "pending", heldReasons: ["review.owner.photoMatch"] });

    // The original owner posting the same picture again (now also in the copier's ad) is not held.
    const again = await post(db, storage, original, [await copyOf(photos[0].data, "JPEG quality 60")]);
    expect(again.held).toBe(false);
    expect(await stateOf(db, again.id)).toMatchObject({ status: "active", signals: null });
    expect(await publicView(db, storage, again)).toEqual(VISIBLE);
  });

  it("holds a held photo uploaded again mirrored, by its copier or by anyone else", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const original = await post(db, storage, await newOwner(db), [photos[3].data]);
    const copier = await newOwner(db);
    const copy = await post(db, storage, copier, [await copyOf(photos[3].data)]);
    expect(copy.held).toBe(true);

    const mirrored = await copyOf(photos[3].data, "mirrored");
    const retry = await post(db, storage, copier, [mirrored]);
    expect(retry.held).toBe(true);
    expect((await stateOf(db, retry.id)).signals).toEqual([
      expect.objectContaining({ kind: "photo-match", photoId: retry.photoId, otherListingId: original.id }),
    ]);

    const third = await post(db, storage, await newOwner(db), [mirrored]);
    expect(third.held).toBe(true);
    expect(await publicView(db, storage, third)).toEqual(NOWHERE);
    const [signal] = (await stateOf(db, third.id)).signals!;
    expect(signal).toMatchObject({ kind: "photo-match", photoId: third.photoId });
    expect([original.id, copy.id, retry.id]).toContain(signal.kind === "photo-match" && signal.otherListingId);
  });

  it("holds an ad asking for an advance by eZ Cash before viewing, in English and in Sinhala", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const texts = [
      "A quiet room near the campus. Send an advance by eZ Cash before viewing to reserve it.",
      "කැම්පස් අසල කාමරය. බැලීමට පෙර අත්තිකාරම් මුදල ඊසී කෑෂ් මගින් එවන්න.",
    ];
    for (const [i, description] of texts.entries()) {
      const listing = await post(db, storage, await newOwner(db), [photos[4 + i].data], { description });
      expect(listing.held).toBe(true);
      const state = await stateOf(db, listing.id);
      // The photos were checked and are no copy: the words alone hold it.
      expect(state.status).toBe("pending");
      expect(state.photosCheckedAt).not.toBeNull();
      const ids = state.signals!.map((s) => (s.kind === "scam" ? s.id : s.kind)).sort();
      expect(ids).toEqual(["advance-before-viewing", "money-transfer"]);
      for (const signal of state.signals!)
        if (signal.kind === "scam")
          for (const phrase of signal.evidence) expect(description.toLowerCase()).toContain(phrase.split(" … ")[0]);
      expect(await publicView(db, storage, listing)).toEqual(NOWHERE);
    }
  });

  it("never holds for a low rent alone; with a second signal the rent is shown against the typical range", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const other = await insertTestOwner(db, `checks-rents-${crypto.randomUUID().slice(0, 8)}`);
    for (const price of [20000, 21000, 22000, 23000, 24000, 25000])
      await insertListing(
        db,
        other,
        listingInput({ university: "University of Moratuwa", propertyType: "hostel", price, keymoneyFee: null }),
      );
    const cheap = { propertyType: "hostel", price: "3000", keymoneyFee: "" };

    const alone = await post(db, storage, await newOwner(db), [photos[6].data], cheap);
    expect(alone.held).toBe(false);
    expect(await stateOf(db, alone.id)).toMatchObject({ status: "active", signals: null });

    const description = "A hostel room near the gate. The place cannot be viewed before paying.";
    const withWords = await post(db, storage, await newOwner(db), [photos[7].data], { ...cheap, description });
    expect(withWords.held).toBe(true);
    expect((await stateOf(db, withWords.id)).signals).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "scam", id: "no-viewing" }),
        { kind: "price", rent: 3000, typicalLow: expect.any(Number), typicalHigh: expect.any(Number) },
      ]),
    );
    const price = (await stateOf(db, withWords.id)).signals!.find((s) => s.kind === "price");
    expect(price).toMatchObject({ typicalLow: expect.toSatisfy((n: number) => n >= 20000) });
  });

  it("counts the poster's network: money by eZ Cash from a network several new accounts used holds the ad", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    for (let i = 0; i < 3; i++) {
      const { id } = await insertTestOwner(db, `checks-net-${i}-${crypto.randomUUID().slice(0, 8)}`);
      const at = new Date().toISOString();
      await db
        .insertInto("sessions")
        .values({
          id: `s-${id}`,
          userId: id,
          token: `t-${id}`,
          expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
          ipAddress: `198.51.100.${10 + i}`,
          userAgent: null,
          createdAt: at,
          updatedAt: at,
        })
        .execute();
    }
    const description = "Rent is paid monthly by eZ Cash.";
    const elsewhere = await post(db, storage, await newOwner(db, "203.0.113.9"), [photos[8].data], { description });
    expect(elsewhere.held).toBe(false);
    const same = await post(db, storage, await newOwner(db, "198.51.100.77"), [photos[9].data], { description });
    expect(same.held).toBe(true);
    expect((await stateOf(db, same.id)).signals).toEqual(
      expect.arrayContaining([
        { kind: "scam", id: "shared-phone-or-network", weight: expect.any(Number), evidence: [] },
      ]),
    );
  });

  it("holds a live ad edited to ask for money before viewing; a held ad stays held; a hidden one stays hidden", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const owner = await newOwner(db);
    const listing = await post(db, storage, owner, [photos[10].data]);
    expect(listing.held).toBe(false);
    const edit = (fields: Partial<Record<keyof typeof LISTING_FORM, string>>) =>
      updateOwnerListing(
        db,
        storage,
        owner,
        listing.id,
        { ...LISTING_FORM, title: `Room ${listing.word}`, ...fields },
        {
          files: [],
        },
      );

    const scam = "A quiet room. Pay the booking fee before viewing to hold it.";
    expect(await edit({ description: scam })).toMatchObject({ ok: true, held: true });
    const held = await stateOf(db, listing.id);
    expect(held.status).toBe("pending");
    expect(held.signals).toEqual([
      expect.objectContaining({ kind: "scam", id: "advance-before-viewing", evidence: expect.any(Array) }),
    ]);
    expect(await publicView(db, storage, listing)).toEqual(NOWHERE);

    // Nothing found any more: it stays held, with what was found, until a moderator decides.
    expect(await edit({ description: "A quiet room. Come and see it any evening." })).toMatchObject({
      ok: true,
      held: true,
    });
    expect(await stateOf(db, listing.id)).toMatchObject({ status: "pending", signals: held.signals });

    // A hidden listing is not held by its owner's edit, whatever it says.
    await db.updateTable("listings").set({ status: "hidden" }).where("id", "=", listing.id).execute();
    expect(await edit({ description: scam })).toMatchObject({ ok: true, held: false });
    expect((await stateOf(db, listing.id)).status).toBe("hidden");
  });

  it("never takes a plain picture (one colour) for a copy", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    const plain = await sharp({
      create: { width: 640, height: 480, channels: 3, background: { r: 30, g: 140, b: 120 } },
    })
      .jpeg()
      .toBuffer();
    const first = await post(db, storage, await newOwner(db), [plain]);
    const second = await post(db, storage, await newOwner(db), [plain]);
    expect([first.held, second.held]).toEqual([false, false]);
    expect(await stateOf(db, second.id)).toMatchObject({ status: "active", signals: null });
  });

  it("holds another owner's ad whose description is nearly the same; the first owner's edit and repost are fine", async () => {
    const { db } = ctx();
    const { storage } = tempPhotoStorage();
    // Rooms no other test here posts: only the words may match.
    const rooms = await originalPhotos(4, 4242);
    const text =
      "Spacious single room for a female student with an attached bathroom, a study table, a wardrobe and a ceiling fan. " +
      "Meals can be arranged. Five minutes walk from the main gate of the university, quiet neighbourhood, call after 5 pm.";
    // The copier changes the rent, a phone number and a word or two.
    const copied = text.replace("ceiling fan", "table fan").replace("call after 5 pm", "call after 6 pm");
    const original = await newOwner(db);
    const first = await post(db, storage, original, [rooms[0].data], { description: text });
    expect(first.held).toBe(false);

    const copier = await newOwner(db);
    const copy = await post(db, storage, copier, [rooms[1].data], { description: copied });
    expect(copy.held).toBe(true);
    const held = await stateOf(db, copy.id);
    expect(held.status).toBe("pending");
    expect(held.signals).toHaveLength(1);
    expect(held.signals![0]).toMatchObject({ kind: "similar-description", otherListingId: first.id });
    expect((held.signals![0] as { similarity: number }).similarity).toBeGreaterThanOrEqual(0.8);
    expect(await publicView(db, storage, copy)).toEqual(NOWHERE);

    // The first owner edits their ad (same words) and posts a second one with them: the copy is younger, not theirs to answer for.
    const edited = await updateOwnerListing(
      db,
      storage,
      original,
      first.id,
      { ...LISTING_FORM, title: `Room ${first.word}`, description: text },
      { files: [] },
    );
    expect(edited).toMatchObject({ ok: true, held: false });
    const again = await post(db, storage, original, [rooms[2].data], { description: text });
    expect(again.held).toBe(false);
    expect((await stateOf(db, again.id)).status).toBe("active");

    // Deleted, the first ad's words still count (ADR 079): a third owner's copy is held.
    expect(await deleteOwnerListing(db, storage, original.id, first.id)).toEqual({ ok: true });
    const third = await post(db, storage, await newOwner(db), [rooms[3].data], { description: copied });
    expect(third.held).toBe(true);
    const signals = (await stateOf(db, third.id)).signals!;
    // Every older ad of other owners with those words: the deleted one, the first owner's second, the held copy.
    expect(signals.every((signal) => signal.kind === "similar-description")).toBe(true);
    expect(signals.map((signal) => (signal.kind === "similar-description" ? signal.otherListingId : 0)).sort()).toEqual(
      [first.id, copy.id, again.id].sort(),
    );
  });
});
