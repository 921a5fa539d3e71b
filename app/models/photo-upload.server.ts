import type { DB } from "../db/db.server";

/**
 * Photos uploaded by the browser before the listing exists are stored with
 * listingId null (issue 3 "Photos"). Posting or editing a listing claims them.
 */

/**
 * Attaches the owner's unattached uploads to a listing, in the given order
 * from `firstPosition`. Returns how many were attached: fewer than asked means
 * some ids were not the owner's, already attached, or gone (the caller refuses).
 */
export async function attachUploads(db: DB, ownerId: string, listingId: number, uploadIds: string[], firstPosition: number): Promise<number> {
  let attached = 0;
  for (const [i, id] of [...new Set(uploadIds)].entries()) {
    const result = await db
      .updateTable("listing_photos")
      .set({ listingId, position: firstPosition + i })
      .where("id", "=", id)
      .where("userId", "=", ownerId)
      .where("listingId", "is", null)
      .executeTakeFirst();
    attached += Number(result.numUpdatedRows);
  }
  return attached;
}

/** How many of these ids are the owner's unattached uploads (checked before processing anything). */
export async function countClaimableUploads(db: DB, ownerId: string, uploadIds: string[]): Promise<number> {
  const ids = [...new Set(uploadIds)];
  if (ids.length === 0) return 0;
  const row = await db
    .selectFrom("listing_photos")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("id", "in", ids)
    .where("userId", "=", ownerId)
    .where("listingId", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
