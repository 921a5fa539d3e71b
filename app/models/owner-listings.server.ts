import { invalidatePublicPages } from "~/cache/invalidation.server";
import type { DB } from "~/db/db.server";
import { lockOwner } from "~/db/locks.server";
import { currentTime } from "~/lib/clock";
import { toE164 } from "~/lib/phone";
import {
  LISTING_LIMITS,
  type ListingFormData,
  type ListingFormField,
  parseListingForm,
  type RawListingForm,
} from "~/schemas/listing-form";
import { DELETED_STATUS, HIDDEN_STATUS, PENDING_STATUS } from "~/schemas/listing-status";
import { type Failure, fail, type ListingFormCode, type MyListingCode, type Result } from "~/schemas/result";
import type { PhotoStorage } from "~/storage/storage.server";
import { markDescriptionRemoved } from "./description-copies.server";
import { insertListing, listingColumns } from "./listing.server";
import { nextStateVersion } from "./listing-hide.server";
import { ownerListings, ownListing } from "./owner-listing-reads.server";
import { confirmedUntil } from "./phone-confirmation.server";
import { phoneAtLimit, phoneFullForEdit, phoneFullUnderLock } from "./phone-limit.server";
import {
  deleteListingPhotoRows,
  type ProcessedPhoto,
  processPhoto,
  removePhotoFiles,
  storeProcessedPhoto,
} from "./photo.server";
import { markFingerprintsRemoved } from "./photo-copies.server";
import { attachUploads, countClaimableUploads } from "./photo-upload.server";
import { checkListing } from "./trust-checks.server";

/**
 * An owner's own listings: posting, editing and deleting (what they read: owner-listing-reads.server.ts;
 * renewing and availability: listing-availability.server.ts). Someone else's listing is always "not found". Posting, editing
 * and deleting run under the owner's lock, so the 3-listing limit holds under
 * concurrent posts.
 */

export const MAX_LISTINGS_PER_OWNER = 3;

export async function countOwnerListings(db: DB, userId: string): Promise<number> {
  const row = await ownerListings(db, userId)
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** `ip`: the request's client address, for the trust checks (trust-checks.server.ts); null or left out when unknown. */
export type ListingOwner = { id: string; email: string; name: string; phone: string; ip?: string | null };

/**
 * Posting or editing: the listing, and whether it is held for review (a trust
 * check found something, or it was held already); or why not (the field is
 * the form's, mostly "photos").
 */
export type SaveListingResult = Result<
  ListingFormCode,
  { listing: { id: number; slug: string }; held: boolean },
  ListingFormField
>;

/**
 * The photos a post or an edit brings: files sent with the form (no
 * JavaScript) and ids of photos the browser uploaded already (photo-upload.server.ts).
 */
export type NewPhotos = { files: Buffer[]; uploadIds?: string[] };

type ListingFailure = Failure<ListingFormCode, ListingFormField>;

const LIMIT: ListingFailure = fail("listing.limit_reached", { field: "photos" });
const PHOTO_GONE: ListingFailure = fail("photo.gone", { field: "photos" });
/** 3 live ads with this number across all accounts already (phone-limit.server.ts). */
const PHONE_LIMIT: ListingFailure = fail("listing.phone_limit", { field: "contactPhone" });

function parseOwnerForm(
  owner: ListingOwner,
  input: RawListingForm,
): { ok: true; data: ListingFormData } | ListingFailure {
  const parsed = parseListingForm({
    ...input,
    contactName: input.contactName?.trim() ? input.contactName : owner.name,
    contactPhone: input.contactPhone?.trim() ? input.contactPhone : owner.phone,
  });
  if (parsed.ok) return parsed;
  const [field] = Object.keys(parsed.errors) as ListingFormField[];
  return fail("listing.invalid", { field });
}

/** A listing has 1 to 3 photos, whatever mix of kept, uploaded and posted ones. */
function photoCountProblem(total: number): ListingFailure | null {
  if (total === 0) return fail("photo.required", { field: "photos" });
  if (total > LISTING_LIMITS.maxPhotos) return fail("photo.too_many", { field: "photos" });
  return null;
}

/** sharp is slow: photos are processed before the transaction so locks are held briefly. */
async function processFiles(files: Buffer[]): Promise<ProcessedPhoto[] | ListingFailure> {
  const processed: ProcessedPhoto[] = [];
  for (const [i, file] of files.entries()) {
    const result = await processPhoto(file);
    if (!result.ok) return fail(result.code, { field: "photos", values: { n: i + 1 } });
    processed.push({ variants: result.variants, fingerprint: result.fingerprint });
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
  photos: { processed: ProcessedPhoto[]; uploadIds: string[] },
  firstPosition: number,
  storedKeys: string[],
  now: Date,
): Promise<void> {
  const attached = await attachUploads(trx, owner.id, listingId, photos.uploadIds, firstPosition);
  if (attached < photos.uploadIds.length) throw new UploadsGone();
  for (const [i, processed] of photos.processed.entries()) {
    const photo = await storeProcessedPhoto(trx, storage, {
      userId: owner.id,
      listingId,
      position: firstPosition + attached + i,
      alt: null,
      now,
      ...processed,
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
 * posts, and leaves no photo files behind when anything fails. The trust
 * checks run in the same transaction: a listing they hold is never public.
 */
export async function createOwnerListing(
  db: DB,
  storage: PhotoStorage,
  owner: ListingOwner,
  input: RawListingForm,
  photos: NewPhotos,
  now = currentTime(),
): Promise<SaveListingResult> {
  const parsed = parseOwnerForm(owner, input);
  if (!parsed.ok) return parsed;
  const uploadIds = [...new Set(photos.uploadIds ?? [])];
  const countProblem = photoCountProblem(photos.files.length + uploadIds.length);
  if (countProblem) return countProblem;

  // Cheap early answer; the count inside the transaction is the one that counts. The owner's own
  // ads, posted meanwhile, can fill the number too: then the account's limit is the reason to give.
  const ownerFull = async () => (await countOwnerListings(db, owner.id)) >= MAX_LISTINGS_PER_OWNER;
  if (await ownerFull()) return LIMIT;
  if (await phoneAtLimit(db, parsed.data.contactPhone, now)) return (await ownerFull()) ? LIMIT : PHONE_LIMIT;
  if (!(await uploadsClaimable(db, owner, uploadIds))) return PHOTO_GONE;
  const processed = await processFiles(photos.files);
  if (!Array.isArray(processed)) return processed;

  const listing = await withStoredFiles(db, storage, async (trx, storedKeys) => {
    await lockOwner(trx, owner.id);
    if ((await countOwnerListings(trx, owner.id)) >= MAX_LISTINGS_PER_OWNER) return null;
    if (await phoneFullUnderLock(trx, parsed.data.contactPhone, now)) return PHONE_LIMIT;
    const created = await insertListing(trx, owner, parsed.data, now);
    await addPhotos(trx, storage, owner, created.id, { processed, uploadIds }, 0, storedKeys, now);
    const held = await checkListing(trx, created.id, owner, { ip: owner.ip ?? null }, now);
    await invalidatePublicPages(trx, [created.id], now);
    return { listing: created, held };
  });
  if (listing === "uploadsGone") return PHOTO_GONE;
  if (!listing) return LIMIT;
  if ("ok" in listing) return listing;
  return { ok: true, ...listing };
}

export type ListingEdit = NewPhotos & { removePhotoIds?: string[] };

/**
 * Updates the owner's listing: its fields, and its photos (some removed, new
 * ones added, 1 to 3 in the end). The slug, ad number, status and expiry never
 * change here, so shared links keep working and a hidden or expired listing
 * stays so, except that the trust checks, run again in the same transaction,
 * hold a live listing they find something in (a held one stays held).
 * Someone else's listing is "not found" and nothing changes.
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
): Promise<SaveListingResult> {
  const notFound: ListingFailure = fail("listing.not_found");
  const ownPhotos = async (trx: DB) => {
    const listing = await ownListing(trx, owner.id, listingId).select(["id", "slug", "status"]).executeTakeFirst();
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
  const photoPlan = (rows: { id: string }[]): ListingFailure | { kept: string[]; removed: string[] } => {
    // Only this listing's own photos can be removed; anything else is refused, not skipped.
    if ([...removeIds].some((id) => !rows.some((r) => r.id === id))) return PHOTO_GONE;
    const kept = rows.filter((r) => !removeIds.has(r.id)).map((r) => r.id);
    return photoCountProblem(kept.length + uploadIds.length + photos.files.length) ?? { kept, removed: [...removeIds] };
  };
  const plan = photoPlan(before.rows);
  if ("ok" in plan) return plan;
  if (!(await uploadsClaimable(db, owner, uploadIds))) return PHOTO_GONE;
  const processed = await processFiles(photos.files);
  if (!Array.isArray(processed)) return processed;

  const removedRows: { id: string; variants: string }[] = [];
  const outcome = await withStoredFiles(db, storage, async (trx, storedKeys): Promise<SaveListingResult> => {
    await lockOwner(trx, owner.id);
    // Read again under the lock: another edit or a delete may have happened since.
    const current = await ownPhotos(trx);
    if (!current) return notFound;
    const checked = photoPlan(current.rows);
    if ("ok" in checked) return checked;
    if (await phoneFullForEdit(trx, listingId, parsed.data.contactPhone, now)) return PHONE_LIMIT;
    if (checked.removed.length > 0) {
      await trx
        .deleteFrom("listing_photos")
        .where("listingId", "=", listingId)
        .where("id", "in", checked.removed)
        .execute();
      await markFingerprintsRemoved(trx, { photoIds: checked.removed }, now);
      removedRows.push(...current.rows.filter((r) => removeIds.has(r.id)));
    }
    for (const [position, id] of checked.kept.entries()) {
      await trx.updateTable("listing_photos").set({ position }).where("id", "=", id).execute();
    }
    await addPhotos(trx, storage, owner, listingId, { processed, uploadIds }, checked.kept.length, storedKeys, now);
    // The number may have changed: browse's 'Phone confirmed only' follows the owner's confirmation of the new one (ADR 084).
    const until = await confirmedUntil(trx, owner.id, toE164(parsed.data.contactPhone), now);
    await trx
      .updateTable("listings")
      // An edit decides what the listing offers: emailed availability links from before stop working (ADR 063).
      .set((eb) => ({
        ...listingColumns(parsed.data),
        phoneConfirmedUntil: until,
        stateVersion: nextStateVersion(eb),
        updatedAt: now.toISOString(),
      }))
      .where("id", "=", listingId)
      .where("userId", "=", owner.id)
      .execute();
    const held = await checkListing(trx, listingId, owner, { ip: owner.ip ?? null }, now);
    await invalidatePublicPages(trx, [listingId], now);
    const { id, slug, status } = current.listing;
    return { ok: true, listing: { id, slug }, held: held || status === PENDING_STATUS };
  });
  if (outcome === "uploadsGone") return PHOTO_GONE;
  if (outcome.ok) await removePhotoFiles(storage, removedRows);
  return outcome;
}

/** Whether a row of `table` names the listing: a report of it, or a shortlist that saved it. */
async function isNamedIn(db: DB, table: "reports" | "shortlist_items", listingId: number): Promise<boolean> {
  const row = await db
    .selectFrom(table)
    .select("listingId")
    .where("listingId", "=", listingId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Deletes the owner's listing, in one transaction under the owner's lock (the
 * same lock as posting and editing). A listing with reports, or hidden, is
 * kept as evidence for moderators ("soft delete": status 'deleted', gone from
 * every public view and from the owner's list and count, reports and photos
 * kept); one saved in a shortlist keeps its row the same way (so the list can
 * name it as no longer available) but loses its photos; any other goes with
 * its photos (rows, then files after the commit).
 * Someone else's listing is "not found".
 */
export async function deleteOwnerListing(
  db: DB,
  storage: PhotoStorage,
  userId: string,
  id: number,
  now = currentTime(),
): Promise<Result<MyListingCode>> {
  const outcome = await db.transaction().execute(async (trx) => {
    await lockOwner(trx, userId);
    const row = await ownListing(trx, userId, id).select("status").executeTakeFirst();
    if (!row) return null;
    // Up no more, whichever way it goes: its words still count for copies (ADR 079).
    await markDescriptionRemoved(trx, id, now);
    const reported = await isNamedIn(trx, "reports", id);
    const softDelete = () =>
      trx
        .updateTable("listings")
        .set((eb) => ({ status: DELETED_STATUS, stateVersion: nextStateVersion(eb), updatedAt: now.toISOString() }))
        .where("id", "=", id);
    if (reported || row.status === HIDDEN_STATUS) {
      await softDelete().execute();
      // Its photos stay for moderators, but it is no longer up: they count as removed (ADR 074).
      await markFingerprintsRemoved(trx, { listingId: id }, now);
      await invalidatePublicPages(trx, [id], now);
      return { kept: true, photos: [] };
    }
    const photos = await deleteListingPhotoRows(trx, id, now);
    if (await isNamedIn(trx, "shortlist_items", id)) {
      // Someone saved it: the row stays (status 'deleted') so their shortlist can say
      // 'No longer available' by its title (ADR 056); the photos go as the owner asked.
      await softDelete().execute();
    } else {
      await trx.deleteFrom("listings").where("id", "=", id).where("userId", "=", userId).execute();
    }
    await invalidatePublicPages(trx, [id], now);
    return { kept: false, photos };
  });
  if (!outcome) return fail("listing.not_found");
  // A failed file removal only leaves an orphan file (the daily sweep takes it).
  await removePhotoFiles(storage, outcome.photos);
  return { ok: true };
}
