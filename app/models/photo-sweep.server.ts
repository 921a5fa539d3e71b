import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import type { PhotoStorage } from "~/storage/storage.server";

/** `${photoId}-${width}.webp` (app/models/photo.server.ts variantKey). */
const VARIANT_KEY = /^([0-9a-f-]{36})-\d{2,4}\.webp$/;
/** Files are written before their row (storeProcessedPhoto): a younger file may still get one. */
export const ORPHAN_MIN_AGE_MS = 24 * 60 * 60 * 1000;
const BATCH = 500;

/**
 * The daily sweep (job "sweep-orphan-photos", ADR 020): removes photo files
 * that no listing_photos row refers to (by its id, or by naming the file in its
 * variants) and that were written more than a day ago. A file with a row is
 * never touched, whatever its listing (uploads in progress, hidden and
 * soft-deleted listings keep theirs), and neither is a file whose name is not
 * a photo variant's.
 */
export async function sweepOrphanPhotos(
  db: DB,
  storage: PhotoStorage,
  now = currentTime(),
): Promise<{ checked: number; removed: number }> {
  const cutoff = now.getTime() - ORPHAN_MIN_AGE_MS;
  let checked = 0;
  let removed = 0;
  let batch: { key: string; photoId: string }[] = [];

  const flush = async () => {
    if (batch.length === 0) return;
    const ids = [...new Set(batch.map((f) => f.photoId))];
    const rows = await db.selectFrom("listing_photos").select("id").where("id", "in", ids).execute();
    const referenced = new Set(rows.map((r) => r.id));
    // Rows may also point at files named after another id (the synthetic seed's shared
    // pool of pictures, app/seed/synthetic.server.ts): a file any row's variants name stays.
    const unreferenced = ids.filter((id) => !referenced.has(id));
    if (unreferenced.length > 0) {
      // One read for the whole batch (ids are hex and dashes: nothing to escape in LIKE).
      const naming = await db
        .selectFrom("listing_photos")
        .select("variants")
        .where((eb) => eb.or(unreferenced.map((id) => eb("variants", "like", `%${id}-%`))))
        .execute();
      for (const id of unreferenced) if (naming.some((row) => row.variants.includes(`${id}-`))) referenced.add(id);
    }
    for (const file of batch) {
      if (referenced.has(file.photoId)) continue;
      await storage.remove(file.key);
      removed++;
    }
    batch = [];
  };

  for await (const file of storage.list()) {
    const match = VARIANT_KEY.exec(file.key);
    if (!match || file.modifiedAt.getTime() > cutoff) continue;
    checked++;
    batch.push({ key: file.key, photoId: match[1]! });
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return { checked, removed };
}
