import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { LISTED_STATUS } from "~/schemas/listing-status";

/**
 * The typical monthly rent of places like a listing (ADR 048): the middle half
 * of the rents of active listings near the same university of the same
 * property type, or null with fewer than MIN_SIMILAR of them (a range of three
 * rooms says nothing). Worked out in the database, remembered per process.
 */
export type TypicalRent = { low: number; high: number; count: number };

export const MIN_SIMILAR = 5;

/**
 * How long a range is reused. Rents move slowly, so a page may show a range a
 * few minutes old; each process asks the database at most once per university
 * and type in this time (about 80 pairs in all).
 */
const REMEMBER_MS = 10 * 60 * 1000;

const remembered = new Map<string, { until: number; value: Promise<TypicalRent | null> }>();

export function typicalRent(db: DB, university: string, propertyType: string): Promise<TypicalRent | null> {
  const key = `${university}\u0000${propertyType}`;
  const now = Date.now();
  const known = remembered.get(key);
  if (known && known.until > now) return known.value;
  const value = rentRange(db, university, propertyType, currentTime().toISOString());
  remembered.set(key, { until: now + REMEMBER_MS, value });
  // A failed read is not remembered: the next page asks again.
  value.catch(() => remembered.delete(key));
  return value;
}

/** Forgets every remembered range (tests). */
export function forgetTypicalRents(): void {
  remembered.clear();
}

async function rentRange(db: DB, university: string, propertyType: string, now: string): Promise<TypicalRent | null> {
  const similar = db
    .selectFrom("listings")
    .where("status", "=", LISTED_STATUS)
    .where("university", "=", university)
    .where("propertyType", "=", propertyType)
    .where("expiresAt", ">", now);
  const counted = await similar.select((eb) => eb.fn.countAll().as("count")).executeTakeFirst();
  const count = Number(counted?.count ?? 0);
  if (count < MIN_SIMILAR) return null;
  // The quartiles by nearest rank: the rent a quarter and three quarters of the way up.
  const rentAt = async (rank: number) => {
    const row = await similar.select("price").orderBy("price").limit(1).offset(rank).executeTakeFirstOrThrow();
    return row.price;
  };
  const [low, high] = await Promise.all([rentAt(Math.ceil(count / 4) - 1), rentAt(Math.ceil((3 * count) / 4) - 1)]);
  return { low, high, count };
}
