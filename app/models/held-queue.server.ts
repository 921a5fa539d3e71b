import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import type { HeldListingView, HeldPhoto, HeldQueue, HeldWaitStats } from "~/schemas/held-view";
import { PENDING_STATUS } from "~/schemas/listing-status";
import { otherListingIds, parseHoldSignals } from "~/schemas/review-hold";

/** The moderators' 'Held for review' queue and how long it makes listings wait (ADR 078). */

/** The most the screen shows at once, oldest first (the count says how many more wait). */
export const HELD_QUEUE_LIMIT = 50;
/** The window of the wait figures. */
export const WAIT_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** The photo width the screen shows side by side. */
const SHOWN_WIDTH = 400;

type Variant = { width: number; height: number; key: string };

/** The smallest variant at least SHOWN_WIDTH wide (else the largest), through the app's photo route. */
function shownPhoto(row: { id: string; position: number; variants: string }): HeldPhoto | null {
  const variants = JSON.parse(row.variants) as Variant[];
  const variant = variants.find((v) => v.width >= SHOWN_WIDTH) ?? variants.at(-1);
  if (!variant) return null;
  return {
    id: row.id,
    position: row.position,
    url: `/photos/${variant.key}`,
    width: variant.width,
    height: variant.height,
  };
}

/** Listings by id with their photos, whatever their status (a moderator compares with hidden ones too). */
async function listingViews(db: DB, ids: readonly number[]): Promise<Map<number, HeldListingView>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom("listings")
    .select(["id", "title", "description", "price", "createdAt"])
    .where("id", "in", [...ids])
    .execute();
  const photos = await db
    .selectFrom("listing_photos")
    .select(["id", "listingId", "position", "variants"])
    .where("listingId", "in", [...ids])
    .orderBy("position")
    .execute();
  const views = new Map<number, HeldListingView>(
    rows.map((row) => [row.id, { ...row, price: Number(row.price), photos: [] }]),
  );
  for (const photo of photos) {
    const shown = shownPhoto(photo);
    if (shown && photo.listingId !== null) views.get(photo.listingId)?.photos.push(shown);
  }
  return views;
}

/** Open holds of listings still pending, oldest first, with every signal and what each compares with. */
export async function listHeldQueue(db: DB, now = currentTime()): Promise<HeldQueue> {
  const open = db
    .selectFrom("listing_holds")
    .innerJoin("listings", "listings.id", "listing_holds.listingId")
    .innerJoin("users", "users.id", "listings.userId")
    .where("listing_holds.decidedAt", "is", null)
    .where("listings.status", "=", PENDING_STATUS);
  const count = await open.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const holds = await open
    .select([
      "listing_holds.listingId",
      "listing_holds.signals",
      "listing_holds.heldAt",
      "users.name as ownerName",
      "users.email as ownerEmail",
    ])
    .orderBy("listing_holds.heldAt")
    .orderBy("listing_holds.listingId")
    .limit(HELD_QUEUE_LIMIT)
    .execute();
  const parsed = holds.map((hold) => ({ ...hold, signals: parseHoldSignals(hold.signals) }));
  const ids = new Set([...parsed.map((h) => h.listingId), ...parsed.flatMap((h) => otherListingIds(h.signals))]);
  const views = await listingViews(db, [...ids]);
  const items = parsed.flatMap((hold) => {
    const listing = views.get(hold.listingId);
    if (!listing) return [];
    const others: Record<number, HeldListingView> = {};
    for (const id of otherListingIds(hold.signals)) {
      const other = views.get(id);
      if (other) others[id] = other;
    }
    return [
      {
        listing: { ...listing, ownerName: hold.ownerName, ownerEmail: hold.ownerEmail },
        heldAt: hold.heldAt,
        signals: hold.signals,
        others,
      },
    ];
  });
  return { items, openCount: Number(count.n), wait: await heldWaitStats(db, now) };
}

/** The nearest-rank percentile `p` (0 to 1] of ascending `sorted`. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

const DECISIONS = ["listing.approve", "listing.reject"] as const;

/**
 * Median and 90th percentile of the time from a hold to its decision, for the
 * decisions made in the 7 days before `now`, read from the audit log: each
 * 'listing.hold' pairs with the first approve or reject of that listing after it.
 */
export async function heldWaitStats(db: DB, now = currentTime()): Promise<HeldWaitStats> {
  const since = new Date(now.getTime() - WAIT_WINDOW_MS).toISOString();
  const until = now.toISOString();
  const decided = db
    .selectFrom("audit_log")
    .select("targetId")
    .where("targetType", "=", "listing")
    .where("action", "in", [...DECISIONS])
    .where("createdAt", ">=", since)
    .where("createdAt", "<=", until);
  const rows = await db
    .selectFrom("audit_log")
    .select(["targetId", "action", "createdAt"])
    .where("targetType", "=", "listing")
    .where("action", "in", ["listing.hold", ...DECISIONS])
    .where("targetId", "in", decided)
    .where("createdAt", "<=", until)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  const heldSince = new Map<string, string>();
  const waits: number[] = [];
  for (const row of rows) {
    if (row.action === "listing.hold") {
      heldSince.set(row.targetId, row.createdAt);
      continue;
    }
    const heldAt = heldSince.get(row.targetId);
    heldSince.delete(row.targetId);
    if (heldAt !== undefined && row.createdAt >= since)
      waits.push(new Date(row.createdAt).getTime() - new Date(heldAt).getTime());
  }
  if (waits.length === 0) return { decisions: 0, medianMs: null, p90Ms: null };
  waits.sort((a, b) => a - b);
  return { decisions: waits.length, medianMs: percentile(waits, 0.5), p90Ms: percentile(waits, 0.9) };
}
