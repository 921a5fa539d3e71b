import type { DB } from "~/db/db.server";
import { lockOwner } from "~/db/locks.server";
import { LISTING_LIMITS, type ListingFormField, parseListingForm, type RawListingForm } from "~/schemas/listing-form";
import type { PhotoStorage } from "~/storage/storage.server";
import { insertListing } from "./listing.server";
import { processPhoto, type ProcessedVariant, storeProcessedPhoto } from "./photo.server";
// Its messages are catalogue keys, translated where they are shown.
import "virtual:catalogue/listing-form";

export const MAX_LISTINGS_PER_OWNER = 3;

export type ListingOwner = { id: string; email: string; name: string; phone: string };

/** A catalogue key and its values, translated where it is shown. */
export type FormMessage = { key: string; values?: Record<string, number> };

export type CreateListingResult =
  | { ok: true; listing: { id: number; slug: string } }
  | { ok: false; errors: Partial<Record<ListingFormField, FormMessage>>; first: FormMessage; limitReached?: true };

const LIMIT: FormMessage = { key: "listingForm.errors.limit" };

export async function countOwnerListings(db: DB, userId: string): Promise<number> {
  const row = await db.selectFrom("listings").select((eb) => eb.fn.countAll<number | string>().as("n")).where("userId", "=", userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

function failure(field: ListingFormField, message: FormMessage, limitReached?: true): CreateListingResult {
  return { ok: false, errors: { [field]: message }, first: message, ...(limitReached ? { limitReached } : {}) };
}

/**
 * Creates an owner's listing with 1 to 3 photos. Validates again whatever the
 * browser checked, keeps at most 3 listings per owner even under concurrent
 * posts, and leaves no photo files behind when anything fails.
 */
export async function createOwnerListing(
  db: DB,
  storage: PhotoStorage,
  owner: ListingOwner,
  input: RawListingForm,
  photos: Buffer[],
  now = new Date(),
): Promise<CreateListingResult> {
  const raw: RawListingForm = {
    ...input,
    contactName: input.contactName?.trim() ? input.contactName : owner.name,
    contactPhone: input.contactPhone?.trim() ? input.contactPhone : owner.phone,
  };
  const parsed = parseListingForm(raw);
  if (!parsed.ok) {
    const errors = Object.fromEntries(Object.entries(parsed.errors).map(([f, key]) => [f, { key }]));
    return { ok: false, errors, first: { key: parsed.first } };
  }
  if (photos.length === 0) return failure("photos", { key: "listingForm.errors.photoRequired" });
  if (photos.length > LISTING_LIMITS.maxPhotos) return failure("photos", { key: "listingForm.errors.photoCount" });

  // Cheap early answer; the count inside the transaction is the one that counts.
  if ((await countOwnerListings(db, owner.id)) >= MAX_LISTINGS_PER_OWNER) return failure("photos", LIMIT, true);

  // sharp is slow: process outside the transaction so the owner lock is held briefly.
  const processed: ProcessedVariant[][] = [];
  for (const [i, photo] of photos.entries()) {
    const result = await processPhoto(photo);
    if (!result.ok) {
      const key = result.error === "Image dimensions too large" ? "listingForm.errors.photoDimensions" : "listingForm.errors.photoInvalid";
      return failure("photos", { key, values: { n: i + 1 } });
    }
    processed.push(result.variants);
  }

  const storedKeys: string[] = [];
  try {
    const listing = await db.transaction().execute(async (trx) => {
      await lockOwner(trx, owner.id);
      if ((await countOwnerListings(trx, owner.id)) >= MAX_LISTINGS_PER_OWNER) return null;
      const created = await insertListing(trx, owner, parsed.data, now);
      for (const [position, variants] of processed.entries()) {
        const photo = await storeProcessedPhoto(trx, storage, {
          userId: owner.id,
          listingId: created.id,
          position,
          alt: null,
          now,
          variants,
        });
        storedKeys.push(...photo.variants.map((v) => v.key));
      }
      return created;
    });
    if (!listing) return failure("photos", LIMIT, true);
    return { ok: true, listing };
  } catch (error) {
    await Promise.allSettled(storedKeys.map((key) => storage.remove(key)));
    throw error;
  }
}
