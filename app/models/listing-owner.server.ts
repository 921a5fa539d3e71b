import type { DB } from "~/db/db.server";
import { lockOwner } from "~/db/locks.server";
import { isMapLink } from "~/lib/location-link";
import {
  LISTING_LIMITS,
  type ListingFormField,
  type ListingFormData,
  type ListingTextField,
  parseListingForm,
  type RawListingForm,
} from "~/schemas/listing-form";
import type { PhotoStorage } from "~/storage/storage.server";
import { findListingById, insertListing } from "./listing.server";
import { attachUploads, countClaimableUploads } from "./photo-upload.server";
import { processPhoto, type ProcessedVariant, removePhotoFiles, storeProcessedPhoto } from "./photo.server";
// Its messages are catalogue keys, translated where they are shown.
import "virtual:catalogue/listing-form";
import { invalidatePublicPages } from "../cache/invalidation.server";
import { currentTime } from "../lib/clock";
import { DELETED_STATUS } from "./my-listings.server";

export const MAX_LISTINGS_PER_OWNER = 3;

export type ListingOwner = { id: string; email: string; name: string; phone: string };

/** A catalogue key and its values, translated where it is shown. */
export type FormMessage = { key: string; values?: Record<string, number> };

export type CreateListingResult =
  | { ok: true; listing: { id: number; slug: string } }
  | { ok: false; errors: Partial<Record<ListingFormField, FormMessage>>; first: FormMessage; limitReached?: true };

export type UpdateListingResult =
  | { ok: true; listing: { id: number; slug: string } }
  | { ok: false; errors: Partial<Record<ListingFormField, FormMessage>>; first: FormMessage; notFound?: true };

/**
 * The photos a post or an edit brings: files sent with the form (no
 * JavaScript) and ids of photos the browser uploaded already (photo-upload.server.ts).
 */
export type NewPhotos = { files: Buffer[]; uploadIds?: string[] };

type Failure = { ok: false; errors: Partial<Record<ListingFormField, FormMessage>>; first: FormMessage };

const LIMIT: FormMessage = { key: "listingForm.errors.limit" };
const PHOTO_GONE: FormMessage = { key: "listingForm.errors.photoGone" };

export async function countOwnerListings(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom("listings")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("userId", "=", userId)
    // A listing its owner deleted but moderators keep (ADR 020) no longer counts.
    .where("status", "!=", DELETED_STATUS)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function failure(field: ListingFormField, message: FormMessage): Failure {
  return { ok: false, errors: { [field]: message }, first: message };
}

function parseOwnerForm(owner: ListingOwner, input: RawListingForm): { ok: true; data: ListingFormData } | Failure {
  const parsed = parseListingForm({
    ...input,
    contactName: input.contactName?.trim() ? input.contactName : owner.name,
    contactPhone: input.contactPhone?.trim() ? input.contactPhone : owner.phone,
  });
  if (parsed.ok) return parsed;
  const errors = Object.fromEntries(Object.entries(parsed.errors).map(([f, key]) => [f, { key }]));
  return { ok: false, errors, first: { key: parsed.first } };
}

/** SPEC.md section 5: a listing has 1 to 3 photos, whatever mix of kept, uploaded and posted ones. */
function photoCountProblem(total: number): Failure | null {
  if (total === 0) return failure("photos", { key: "listingForm.errors.photoRequired" });
  if (total > LISTING_LIMITS.maxPhotos) return failure("photos", { key: "listingForm.errors.photoCount" });
  return null;
}

/** sharp is slow: photos are processed before the transaction so locks are held briefly. */
async function processFiles(files: Buffer[]): Promise<ProcessedVariant[][] | Failure> {
  const processed: ProcessedVariant[][] = [];
  for (const [i, file] of files.entries()) {
    const result = await processPhoto(file);
    if (!result.ok) {
      const key =
        result.error === "Image dimensions too large"
          ? "listingForm.errors.photoDimensions"
          : "listingForm.errors.photoInvalid";
      return failure("photos", { key, values: { n: i + 1 } });
    }
    processed.push(result.variants);
  }
  return processed;
}

/** Thrown inside a transaction to roll it back when an upload was claimed by someone else meanwhile. */
class UploadsGone extends Error {}

/**
 * Stores processed files after `firstPosition` and claims the uploads before
 * them. Records every stored key so the caller can remove the files if the
 * transaction does not commit.
 */
async function addPhotos(
  trx: DB,
  storage: PhotoStorage,
  owner: ListingOwner,
  listingId: number,
  photos: { processed: ProcessedVariant[][]; uploadIds: string[] },
  firstPosition: number,
  storedKeys: string[],
  now: Date,
): Promise<void> {
  const attached = await attachUploads(trx, owner.id, listingId, photos.uploadIds, firstPosition);
  if (attached < photos.uploadIds.length) throw new UploadsGone();
  for (const [i, variants] of photos.processed.entries()) {
    const photo = await storeProcessedPhoto(trx, storage, {
      userId: owner.id,
      listingId,
      position: firstPosition + attached + i,
      alt: null,
      now,
      variants,
    });
    storedKeys.push(...photo.variants.map((v) => v.key));
  }
}

/** Runs a transaction that stores photo files; if it does not commit, the files go too. */
async function withStoredFiles<T>(
  db: DB,
  storage: PhotoStorage,
  work: (trx: DB, storedKeys: string[]) => Promise<T>,
): Promise<T | "uploadsGone"> {
  const storedKeys: string[] = [];
  try {
    return await db.transaction().execute((trx) => work(trx, storedKeys));
  } catch (error) {
    await Promise.allSettled(storedKeys.map((key) => storage.remove(key)));
    if (error instanceof UploadsGone) return "uploadsGone";
    throw error;
  }
}

/** Whether every upload id (deduplicated) is the owner's own unclaimed upload; checked before anything is processed. */
async function uploadsClaimable(db: DB, owner: ListingOwner, uploadIds: string[]): Promise<boolean> {
  return (await countClaimableUploads(db, owner.id, uploadIds)) === uploadIds.length;
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
  photos: NewPhotos,
  now = currentTime(),
): Promise<CreateListingResult> {
  const parsed = parseOwnerForm(owner, input);
  if (!parsed.ok) return parsed;
  const uploadIds = [...new Set(photos.uploadIds ?? [])];
  const countProblem = photoCountProblem(photos.files.length + uploadIds.length);
  if (countProblem) return countProblem;

  // Cheap early answer; the count inside the transaction is the one that counts.
  if ((await countOwnerListings(db, owner.id)) >= MAX_LISTINGS_PER_OWNER)
    return { ...failure("photos", LIMIT), limitReached: true };
  if (!(await uploadsClaimable(db, owner, uploadIds))) return failure("photos", PHOTO_GONE);
  const processed = await processFiles(photos.files);
  if (!Array.isArray(processed)) return processed;

  const listing = await withStoredFiles(db, storage, async (trx, storedKeys) => {
    await lockOwner(trx, owner.id);
    if ((await countOwnerListings(trx, owner.id)) >= MAX_LISTINGS_PER_OWNER) return null;
    const created = await insertListing(trx, owner, parsed.data, now);
    await invalidatePublicPages(trx, [created.id], now);
    await addPhotos(trx, storage, owner, created.id, { processed, uploadIds }, 0, storedKeys, now);
    return created;
  });
  if (listing === "uploadsGone") return failure("photos", PHOTO_GONE);
  if (!listing) return { ...failure("photos", LIMIT), limitReached: true };
  return { ok: true, listing };
}

export type ListingEdit = NewPhotos & { removePhotoIds?: string[] };

/**
 * Updates the owner's listing: its fields, and its photos (some removed, new
 * ones added, 1 to 3 in the end). The slug, ad number, status and expiry never
 * change here, so shared links keep working and a hidden or expired listing
 * stays so. Someone else's listing is "not found" and nothing changes.
 * Files of removed photos are deleted only once the change is committed.
 */
export async function updateOwnerListing(
  db: DB,
  storage: PhotoStorage,
  owner: ListingOwner,
  listingId: number,
  input: RawListingForm,
  photos: ListingEdit,
  now = currentTime(),
): Promise<UpdateListingResult> {
  const notFound: UpdateListingResult = {
    ...failure("photos", { key: "listingForm.errors.notFound" }),
    notFound: true,
  };
  const ownPhotos = async (trx: DB) => {
    const listing = await trx
      .selectFrom("listings")
      .select(["id", "slug"])
      .where("id", "=", listingId)
      .where("userId", "=", owner.id)
      .where("status", "!=", DELETED_STATUS)
      .executeTakeFirst();
    if (!listing) return null;
    const rows = await trx
      .selectFrom("listing_photos")
      .select(["id", "variants"])
      .where("listingId", "=", listingId)
      .orderBy("position")
      .orderBy("createdAt")
      .execute();
    return { listing, rows };
  };
  // Checks that need no transaction come first, so a refused edit costs little.
  const before = await ownPhotos(db);
  if (!before) return notFound;
  const parsed = parseOwnerForm(owner, input);
  if (!parsed.ok) return parsed;

  const removeIds = new Set(photos.removePhotoIds ?? []);
  const uploadIds = [...new Set(photos.uploadIds ?? [])];
  const photoPlan = (rows: { id: string }[]): Failure | { kept: string[]; removed: string[] } => {
    // Only this listing's own photos can be removed; anything else is refused, not skipped.
    if ([...removeIds].some((id) => !rows.some((r) => r.id === id))) return failure("photos", PHOTO_GONE);
    const kept = rows.filter((r) => !removeIds.has(r.id)).map((r) => r.id);
    return photoCountProblem(kept.length + uploadIds.length + photos.files.length) ?? { kept, removed: [...removeIds] };
  };
  const plan = photoPlan(before.rows);
  if ("ok" in plan) return plan;
  if (!(await uploadsClaimable(db, owner, uploadIds))) return failure("photos", PHOTO_GONE);
  const processed = await processFiles(photos.files);
  if (!Array.isArray(processed)) return processed;

  const removedRows: { id: string; variants: string }[] = [];
  const outcome = await withStoredFiles(db, storage, async (trx, storedKeys): Promise<UpdateListingResult> => {
    await lockOwner(trx, owner.id);
    // Read again under the lock: another edit or a delete may have happened since.
    const current = await ownPhotos(trx);
    if (!current) return notFound;
    const checked = photoPlan(current.rows);
    if ("ok" in checked) return checked;
    if (checked.removed.length > 0) {
      await trx
        .deleteFrom("listing_photos")
        .where("listingId", "=", listingId)
        .where("id", "in", checked.removed)
        .execute();
      removedRows.push(...current.rows.filter((r) => removeIds.has(r.id)));
    }
    for (const [position, id] of checked.kept.entries()) {
      await trx.updateTable("listing_photos").set({ position }).where("id", "=", id).execute();
    }
    await addPhotos(trx, storage, owner, listingId, { processed, uploadIds }, checked.kept.length, storedKeys, now);
    await trx
      .updateTable("listings")
      .set({ ...parsed.data, amenities: JSON.stringify(parsed.data.amenities), updatedAt: now.toISOString() })
      .where("id", "=", listingId)
      .where("userId", "=", owner.id)
      .execute();
    await invalidatePublicPages(trx, [listingId], now);
    return { ok: true, listing: current.listing };
  });
  if (outcome === "uploadsGone") return failure("photos", PHOTO_GONE);
  if (outcome.ok) await removePhotoFiles(storage, removedRows);
  return outcome;
}

export type ListingEditForm = {
  id: number;
  slug: string;
  title: string;
  values: Partial<Record<ListingTextField, string>>;
  amenities: string[];
  photos: { id: string; url: string; alt: string }[];
};

/** The owner's listing as the edit form shows it, or null when it is not theirs (or gone). */
export async function findOwnerListingForm(db: DB, userId: string, id: number): Promise<ListingEditForm | null> {
  const listing = await findListingById(db, id);
  if (!listing || listing.userId !== userId) return null;
  const mapLink = listing.location && isMapLink(listing.location) ? listing.location : "";
  return {
    id,
    slug: listing.slug,
    title: listing.title,
    values: {
      title: listing.title,
      description: listing.description,
      price: String(listing.price),
      keymoneyFee: listing.keymoneyFee === null ? "" : String(listing.keymoneyFee),
      university: listing.university,
      faculty: listing.faculty,
      propertyType: listing.propertyType,
      gender: listing.gender,
      mapLink,
      location: mapLink ? "" : (listing.location ?? ""),
      contactName: listing.contactName,
      contactPhone: listing.contactPhone,
    },
    amenities: listing.amenities,
    photos: listing.photos.map((p) => ({ id: p.id, url: p.variants[0]?.url ?? p.url, alt: p.alt })),
  };
}
