import type { CountMemo } from "~/db/count-memo.server";
import type { DB } from "~/db/db.server";
import { UNIVERSITIES } from "~/directory/universities";
import { currentTime } from "~/lib/clock";
import { countPublicListings, countUniversitiesWithListings } from "~/models/listing.server";
import type { SiteFigures } from "~/schemas/site-figures-view";

/**
 * The home and about pages' figures, real counts. Counted on
 * the server, the directory's size too: the browser then never loads the
 * directory for one number (the 120 KB first-load budget, tests/e2e/budgets.spec.ts).
 */

export async function siteFigures(db: DB, memo?: CountMemo, now = currentTime()): Promise<SiteFigures> {
  // Remembered until a listing changes (ADR 096): the listings' count reads the per-status counts
  // that triggers keep (ADR 127); the universities' walks the index, one probe a university.
  const count = (key: string, compute: () => Promise<number>) => (memo ? memo.count(key, compute) : compute());
  const [listingCount, universitiesWithListings] = await Promise.all([
    count("public-listings", () => countPublicListings(db, now)),
    count("universities-with-listings", () => countUniversitiesWithListings(db, now)),
  ]);
  return { listingCount, universitiesWithListings, universitiesSupported: UNIVERSITIES.length };
}
