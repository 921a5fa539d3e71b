import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { findOwnerListing } from "~/models/owner-listing-reads.server";

/**
 * What each ad did per day (ADR 089): views, saves to a shortlist and taps on
 * 'Call Now', WhatsApp and Viber, one row per listing and day of Sri Lanka's
 * calendar. Counts only: who did it is never stored here.
 */
export const DAILY_COUNT_KINDS = ["views", "saves", "calls", "whatsapp", "viber"] as const;
export type DailyCountKind = (typeof DAILY_COUNT_KINDS)[number];

export type DailyIncrement = { listingId: number; day: string } & Partial<Record<DailyCountKind, number>>;
export type DailyCounts = { day: string } & Record<DailyCountKind, number>;

/** Sri Lanka keeps UTC+05:30 all year (no daylight saving), so its day is a fixed shift of UTC. */
const COLOMBO_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The day (YYYY-MM-DD) a moment falls on in Asia/Colombo. */
export function colomboDay(at: Date): string {
  return new Date(at.getTime() + COLOMBO_OFFSET_MS).toISOString().slice(0, 10);
}

/** The `days` Colombo days up to and including today's, oldest first. */
export function lastDays(days: number, now = currentTime()): string[] {
  const today = Date.parse(colomboDay(now));
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** A day's counts, each from `count` (zero by default). */
function countsOn(day: string, count: (kind: DailyCountKind) => number = () => 0): DailyCounts {
  return {
    day,
    ...(Object.fromEntries(DAILY_COUNT_KINDS.map((kind) => [kind, count(kind)])) as Record<DailyCountKind, number>),
  };
}

/** Rows per statement: seven bound values a row, well under both databases' limits. */
const UPSERT_CHUNK = 100;

/**
 * Adds a batch of counts, merged first per listing and day, in one upsert per
 * chunk (the same ON CONFLICT … DO UPDATE on SQLite and PostgreSQL). Counts of
 * listings deleted meanwhile are dropped.
 */
export async function addDailyCounts(db: DB, increments: readonly DailyIncrement[]): Promise<void> {
  const merged = new Map<string, DailyCounts & { listingId: number }>();
  for (const increment of increments) {
    const key = `${increment.listingId}:${increment.day}`;
    const row = merged.get(key) ?? { listingId: increment.listingId, ...countsOn(increment.day) };
    for (const kind of DAILY_COUNT_KINDS) row[kind] += increment[kind] ?? 0;
    merged.set(key, row);
  }
  if (merged.size === 0) return;
  const listingIds = [...new Set([...merged.values()].map((r) => r.listingId))];
  const existing = new Set(
    (await db.selectFrom("listings").select("id").where("id", "in", listingIds).execute()).map((r) => r.id),
  );
  const rows = [...merged.values()].filter((r) => existing.has(r.listingId));
  for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
    await db
      .insertInto("listing_daily_counts")
      .values(rows.slice(i, i + UPSERT_CHUNK))
      .onConflict((oc) =>
        oc.columns(["listingId", "day"]).doUpdateSet((eb) => ({
          views: eb("listing_daily_counts.views", "+", eb.ref("excluded.views")),
          saves: eb("listing_daily_counts.saves", "+", eb.ref("excluded.saves")),
          calls: eb("listing_daily_counts.calls", "+", eb.ref("excluded.calls")),
          whatsapp: eb("listing_daily_counts.whatsapp", "+", eb.ref("excluded.whatsapp")),
          viber: eb("listing_daily_counts.viber", "+", eb.ref("excluded.viber")),
        })),
      )
      .execute();
  }
}

/** Days the owner sees: the last 30, today included (My Ads and the API). */
export const INSIGHT_DAYS = 30;

/**
 * Each listing's counts for the last `days` Colombo days, oldest first, with
 * a zero row for every day nothing happened.
 */
export async function dailyCountsOf(
  db: DB,
  listingIds: readonly number[],
  { days = INSIGHT_DAYS, now = currentTime() }: { days?: number; now?: Date } = {},
): Promise<Map<number, DailyCounts[]>> {
  const calendar = lastDays(days, now);
  const result = new Map<number, DailyCounts[]>();
  if (listingIds.length === 0) return result;
  const rows = await db
    .selectFrom("listing_daily_counts")
    .select(["listingId", "day", ...DAILY_COUNT_KINDS])
    .where("listingId", "in", listingIds)
    .where("day", ">=", calendar[0])
    .where("day", "<=", calendar[calendar.length - 1])
    .execute();
  const byKey = new Map(rows.map((r) => [`${r.listingId}:${r.day}`, r]));
  for (const listingId of listingIds) {
    result.set(
      listingId,
      calendar.map((day) => {
        const row = byKey.get(`${listingId}:${day}`);
        // PostgreSQL may answer integers as strings: Number() either way.
        return countsOn(day, (kind) => Number(row?.[kind] ?? 0));
      }),
    );
  }
  return result;
}

export type ListingInsights = { listingId: number; days: DailyCounts[]; totals: Record<DailyCountKind, number> };

/**
 * One listing's last 30 days for its owner (the JSON API), or null when the
 * listing is not this user's (or is deleted): the caller then answers as for a
 * listing that does not exist.
 */
export async function ownerListingInsights(
  db: DB,
  userId: string,
  listingId: number,
  now = currentTime(),
): Promise<ListingInsights | null> {
  const own = await findOwnerListing(db, userId, listingId);
  if (!own) return null;
  const days = (await dailyCountsOf(db, [own.id], { now })).get(own.id) ?? [];
  const totals = Object.fromEntries(
    DAILY_COUNT_KINDS.map((kind) => [kind, days.reduce((sum, day) => sum + day[kind], 0)]),
  ) as Record<DailyCountKind, number>;
  return { listingId: own.id, days, totals };
}
