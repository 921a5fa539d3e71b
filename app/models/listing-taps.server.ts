import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import type { RateLimiter } from "~/limits/rate-limit.server";
import { findListingBySlug } from "~/models/listing.server";
import { addDailyCounts, colomboDay, type DailyCountKind } from "~/models/listing-daily-counts.server";
import { hashViewerId, isCountableViewRequest } from "~/models/view-tracking.server";
import { isCrossSite } from "~/security/origin.server";
import { readCookie, VISITOR_COOKIE, visitorIdFrom } from "~/security/visitor-id.server";

/** What a visitor did on a listing that its owner sees per day (ADR 089), besides views. */
export const TAP_KINDS = ["call", "whatsapp", "viber", "save"] as const;
export type TapKind = (typeof TAP_KINDS)[number];
/** The contact links a page's ping or beacon names (a save is counted by the shortlist itself). */
export const CONTACT_TAP_KINDS = ["call", "whatsapp", "viber"] as const;

const COLUMN: Record<TapKind, DailyCountKind> = { call: "calls", whatsapp: "whatsapp", viber: "viber", save: "saves" };

export function isContactTapKind(value: string): value is (typeof CONTACT_TAP_KINDS)[number] {
  return (CONTACT_TAP_KINDS as readonly string[]).includes(value);
}

/**
 * Who tapped, as the limiter knows them: the salted hash of a returning
 * visitor's signed id (null for a browser whose cookie is new: a new cookie
 * proves nothing, so the address stands in), and the client's address.
 */
export type Tapper = { visitorKey: string | null; clientIp: string };

/**
 * Counts a tap once per visitor, listing, kind and Colombo day, and at most
 * `tapNetwork` times a day from one network (ADR 089). The limiter's keys are
 * the dedupe: atomic in memory and in Redis, so a ping and a beacon for the
 * same click count once. Returns whether the tap counted.
 */
export async function countListingTap(
  db: DB,
  limiter: RateLimiter,
  tap: { listingId: number; kind: TapKind },
  who: Tapper,
  now = currentTime(),
): Promise<boolean> {
  const day = colomboDay(now);
  const key = `${tap.listingId}:${tap.kind}:${day}`;
  if (!(await limiter.consume("tapVisitor", { visitor: who.visitorKey, ip: who.clientIp, tap: key })).ok) return false;
  if (!(await limiter.consume("tapNetwork", { ip: who.clientIp, tap: key })).ok) return false;
  await addDailyCounts(db, [{ listingId: tap.listingId, day, [COLUMN[tap.kind]]: 1 }]);
  return true;
}

/**
 * Who a request is: the salted hash of its signed visitor id when it has one,
 * else its address alone. A cookie this server did not sign (made up) yields
 * null: nothing it does counts (ADR 017).
 */
export function tapperOf(
  cookieHeader: string | null,
  options: { visitorSalt: string; visitorSecret: string; clientIp: string },
): Tapper | null {
  const visitorId = visitorIdFrom(cookieHeader, options.visitorSecret);
  if (!visitorId && readCookie(cookieHeader, VISITOR_COOKIE) !== null) return null;
  return {
    visitorKey: visitorId ? hashViewerId(options.visitorSalt, "visitor", visitorId) : null,
    clientIp: options.clientIp,
  };
}

export type ContactTapOptions = {
  limiter: RateLimiter;
  clientIp: string;
  visitorSalt: string;
  visitorSecret: string;
  siteUrl: string;
};

/**
 * A ping or beacon from a listing page's contact link: counted when it comes
 * from a browser on our own pages (not another site's, not a crawler or a
 * prefetch) for a public listing. False when it cannot count (checked before
 * any lookup); null when there is no such listing; else whether it counted.
 */
export async function countContactTap(
  db: DB,
  request: Request,
  tap: { slug: string; kind: (typeof CONTACT_TAP_KINDS)[number] },
  options: ContactTapOptions,
): Promise<boolean | null> {
  // What needs no database first: another site's page, a crawler or a made-up cookie costs no lookup.
  if (isCrossSite(request, options.siteUrl) || !isCountableViewRequest(request)) return false;
  const who = tapperOf(request.headers.get("cookie"), options);
  if (!who) return false;
  const listing = await findListingBySlug(db, tap.slug);
  if (!listing) return null;
  return countListingTap(db, options.limiter, { listingId: Number(listing.id), kind: tap.kind }, who);
}
