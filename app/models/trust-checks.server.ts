import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import type { HoldSignal } from "~/schemas/review-hold";
import { findSimilarDescriptions, recordDescriptionSketch } from "./description-copies.server";
import { holdForReview } from "./listing-review.server";
import { findCopiedPhotos, listingFingerprints } from "./photo-copies.server";
import { gatherScamFacts } from "./scam-facts.server";
import { type ScamSignal, scoreListing } from "./scam-signals";

/**
 * The trust checks a new or edited listing goes through (ADR 082), run in the
 * post's or edit's own transaction, after its row and photos are written, so
 * the listing and its hold commit together: its photos against other owners'
 * ads (ADR 074) and its words, rent and poster against the scam rules
 * (ADR 077). Anything found holds it for review (ADR 078).
 */

/** What the checks read of the listing. */
export type CheckedListing = {
  id: number;
  /** Its owner: their own other ads are never a copy. */
  userId: string;
  title: string;
  description: string;
  price: number;
  keymoneyFee: number | null;
  university: string;
  propertyType: string;
  contactPhone: string;
};

/** Who posted or edited it: the network the request came from (the request's client address), null when unknown. */
export type Poster = { ip: string | null };

/** A check of the listing's text and facts: the signals that hold it, none when it found nothing to hold it for. */
export type ListingCheck = (db: DB, listing: CheckedListing, poster: Poster, now: Date) => Promise<HoldSignal[]>;

/** A scam rule's finding as the hold stores it: the low rent is a price signal, the others scam signals. */
function holdSignalOf(signal: ScamSignal): HoldSignal {
  switch (signal.id) {
    case "low-rent": {
      const { rent, typicalLow, typicalHigh } = signal.price;
      return { kind: "price", rent, typicalLow, typicalHigh };
    }
    case "shared-phone-or-network":
      // The counts are no phrases of the text: the moderator reads the rule's label.
      return { kind: "scam", id: signal.id, weight: signal.weight, evidence: [] };
    default:
      return { kind: "scam", id: signal.id, weight: signal.weight, evidence: signal.phrases };
  }
}

/** The scam rules (ADR 077): all their signals when the score holds the listing (the price alone never does), else none. */
export const scamCheck: ListingCheck = async (db, listing, poster, now) => {
  const facts = await gatherScamFacts(db, listing, poster, now);
  const score = scoreListing({
    title: listing.title,
    description: listing.description,
    rent: listing.price,
    keyMoney: listing.keymoneyFee,
    ...facts,
  });
  return score.held ? score.signals.map(holdSignalOf) : [];
};

/**
 * Whoever had a photo or the words first is not the copier (ADR 082): of what
 * other owners' ads share with `ownerId`'s listing, only what they had before
 * the owner's own first ad with it (`age`: earlier is smaller), in the order
 * given. So an owner editing or reposting their own ad is never held for a
 * copier's ad of it.
 */
function copiedFrom<T extends { ownerId: string }>(
  found: readonly T[],
  ownerId: string,
  age: (item: T) => string | number,
) {
  const own = found.filter((item) => item.ownerId === ownerId).map(age);
  const firstOwn = own.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[0] ?? null;
  return found.filter((item) => item.ownerId !== ownerId && (firstOwn === null || age(item) < firstOwn));
}

/**
 * Near-duplicate descriptions (ADR 079): a `similar-description` signal per
 * other owner's listing whose description this one nearly is, then this
 * listing's sketch is stored so later ads are compared with it; the older
 * ad (smaller number) had the words first (`copiedFrom`).
 */
export const descriptionCheck: ListingCheck = async (db, listing, _poster, now) => {
  // Every owner's listings with the text (theirs too).
  const similar = (await findSimilarDescriptions(db, null, listing.description, now)).filter(
    (s) => s.listingId !== listing.id,
  );
  await recordDescriptionSketch(db, { listingId: listing.id, userId: listing.userId, text: listing.description }, now);
  if (similar.length === 0) return [];
  const owners = new Map(
    (
      await db
        .selectFrom("description_sketches")
        .select(["listingId", "userId"])
        .where(
          "listingId",
          "in",
          similar.map((s) => s.listingId),
        )
        .execute()
    ).map((row) => [Number(row.listingId), row.userId]),
  );
  const found = [
    { listingId: listing.id, ownerId: listing.userId, similarity: 1 },
    ...similar.map((s) => ({ ...s, ownerId: owners.get(s.listingId) ?? "" })),
  ];
  return copiedFrom(found, listing.userId, (s) => s.listingId).map((s) => ({
    kind: "similar-description" as const,
    otherListingId: s.listingId,
    similarity: s.similarity,
  }));
};

/** The checks of the listing's text and facts, in order. */
export const TEXT_CHECKS: readonly ListingCheck[] = [scamCheck, descriptionCheck];

/**
 * The photos' check (ADR 074): a `photo-match` signal per photo of the listing
 * found in another owner's ad, with the nearest such photo; the photo
 * uploaded earlier had the picture first (`copiedFrom`).
 */
async function photoMatches(db: DB, listing: CheckedListing, now: Date): Promise<HoldSignal[]> {
  const photos = await listingFingerprints(db, listing.id);
  // Every owner's photos, theirs too (earlier ones of this listing included), less these.
  const these = new Set(photos.map((p) => p.photoId));
  const found = (await findCopiedPhotos(db, null, photos, now)).filter((m) => !these.has(m.photoId));
  return photos.flatMap(({ photoId }, index) => {
    // Nearest first (findCopiedPhotos' order); ISO times compare in time order.
    const [copied] = copiedFrom(
      found.filter((m) => m.photo === index),
      listing.userId,
      (m) => m.createdAt,
    );
    if (!copied) return [];
    return [
      {
        kind: "photo-match" as const,
        photoId,
        otherListingId: copied.listingId,
        otherPhotoId: copied.photoId,
        distance: copied.distance,
      },
    ];
  });
}

function checkedListing(db: DB, listingId: number, ownerId: string) {
  return db
    .selectFrom("listings")
    .select([
      "id",
      "userId",
      "title",
      "description",
      "price",
      "keymoneyFee",
      "university",
      "propertyType",
      "contactPhone",
    ])
    .where("id", "=", listingId)
    .where("userId", "=", ownerId)
    .executeTakeFirst();
}

/**
 * Runs every check on `owner`'s listing as it is now written, in the caller's
 * transaction (`db`), under the owner's lock. Whatever any finds holds it for
 * review, with all their signals; an open hold gets the new signals instead
 * (ADR 078). The photos' date is set when they matched no other owner's ad,
 * cleared when they did. True when the listing is held for what was found
 * (newly or again); a listing that cannot be held (hidden, expired, let) or
 * that nothing was found in answers false. `checks`: the text checks to run
 * (TEXT_CHECKS unless a test says otherwise).
 */
export async function checkListing(
  db: DB,
  listingId: number,
  owner: { id: string },
  poster: Poster,
  now = currentTime(),
  checks: readonly ListingCheck[] = TEXT_CHECKS,
): Promise<boolean> {
  const listing = await checkedListing(db, listingId, owner.id);
  if (!listing) return false;
  const photoSignals = await photoMatches(db, listing, now);
  await db
    .updateTable("listings")
    .set({ photosCheckedAt: photoSignals.length === 0 ? now.toISOString() : null })
    .where("id", "=", listingId)
    .execute();
  const signals = [...photoSignals];
  for (const check of checks) signals.push(...(await check(db, listing, poster, now)));
  if (signals.length === 0) return false;
  return (await holdForReview(db, listingId, signals, now)) !== "not-holdable";
}
