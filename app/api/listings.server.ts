import type { CountMemo } from "~/db/count-memo.server";
import type { DB } from "~/db/db.server";
import type { Pagination } from "~/lib/pagination";
import { findListingByIdOrSlug } from "~/models/listing.server";
import { shownChecks } from "~/models/listing-checks.server";
import { searchListings } from "~/models/listing-search.server";
import type { PathFilters } from "~/schemas/browse-filters";
import type { ListingDetail, ListingSummary } from "~/schemas/listing-view";
import { type ListQuery, parseListQuery } from "./list-query";
import { type ApiError, errorResponse, jsonResponse, LIST_CACHE_CONTROL } from "./responses";

export type ListAdsBody = { ads: ListingSummary[]; pagination: Pagination };

export type ListAdsResult =
  | { ok: true; status: 200; body: ListAdsBody; query: ListQuery }
  | { ok: false; status: 400; body: ApiError };

/**
 * GET /api/listings, /getAdsForSEO and /getAdsByUniversity/{university}, and
 * the /old-browse page: one code path, so the page shows what the API returns.
 */
export async function listAds(
  db: DB,
  params: URLSearchParams,
  path: PathFilters = {},
  phonesEnabled = true,
  /** Remembered counts (ADR 096): absent, every answer counts its matches. */
  counts?: CountMemo,
): Promise<ListAdsResult> {
  const parsed = parseListQuery(params, path);
  if (!parsed.ok) return { ok: false, status: 400, body: parsed.error };
  const { filters, page, limit } = parsed.query;
  // Phone confirmation off: `phone=confirmed` is ignored and no listing says its phone was confirmed (ADR 080).
  if (!phonesEnabled) delete filters.phone;
  const { ads, pagination } = await searchListings(db, filters, { page, limit, counts });
  const shown = ads.map((ad) => ({ ...ad, checks: shownChecks(ad.checks, phonesEnabled) }));
  return { ok: true, status: 200, body: { ads: shown, pagination }, query: parsed.query };
}

export async function listAdsResponse(
  db: DB,
  params: URLSearchParams,
  path: PathFilters = {},
  phonesEnabled = true,
  counts?: CountMemo,
): Promise<Response> {
  const result = await listAds(db, params, path, phonesEnabled, counts);
  if (!result.ok) return errorResponse(result.status, result.body);
  return jsonResponse(result.body, { cacheControl: LIST_CACHE_CONTROL });
}

/** The owner's account id stays private; the phone is public on the listing page anyway. */
export type ApiListingDetail = Omit<ListingDetail, "userId">;

export type GetAdResult =
  | { ok: true; status: 200; body: { ad: ApiListingDetail } }
  | { ok: false; status: 404; body: ApiError };

/** The exact not-found body of /getAdForSEO/{id}. */
export const AD_NOT_FOUND: ApiError = { error: "Ad not found" };

/** Longer than any slug we make (80 characters plus the ad number). */
const MAX_ID_OR_SLUG = 200;

/**
 * One listing by ad number or slug. Hidden and pending listings are not
 * found; expired ones are, with isExpired so clients can say so, and so are
 * those their owner said are no longer available (isLet).
 */
export async function getAd(db: DB, idOrSlug: string, phonesEnabled = true): Promise<GetAdResult> {
  const value = idOrSlug.trim();
  const listing = value && value.length <= MAX_ID_OR_SLUG ? await findListingByIdOrSlug(db, value) : null;
  if (!listing) return { ok: false, status: 404, body: AD_NOT_FOUND };
  const { userId: _userId, ...ad } = listing;
  return { ok: true, status: 200, body: { ad: { ...ad, checks: shownChecks(ad.checks, phonesEnabled) } } };
}

export async function getAdResponse(db: DB, idOrSlug: string, phonesEnabled = true): Promise<Response> {
  const result = await getAd(db, idOrSlug, phonesEnabled);
  if (!result.ok) return errorResponse(result.status, result.body);
  return jsonResponse(result.body, { cacheControl: LIST_CACHE_CONTROL });
}
