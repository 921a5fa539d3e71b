import { invalidatePublicPages } from "~/cache/invalidation.server";
import type { DB } from "~/db/db.server";
import { currentTime } from "~/lib/clock";
import { expiryFrom } from "~/lib/days-left";
import {
  DELETED_STATUS,
  HIDDEN_STATUS,
  LET_STATUS,
  LETTABLE_STATUSES,
  LISTED_STATUS,
  type ListingStatus,
  PENDING_STATUS,
  statusIn,
} from "~/schemas/listing-status";
import { type AvailabilityLinkCode, fail, type Result } from "~/schemas/result";
import { nextStateVersion } from "./listing-hide.server";
import { listingsWithOwner } from "./listing-owner.server";

/**
 * A listing's availability (ADR 056): renewing, 'Still available'
 * and 'No longer available', from My Ads or from a reminder email's link.
 * Every answer is a decision about the listing's state (stateVersion), so a
 * link works once, and not after a later decision from any path (ADR 063).
 */

/**
 * Who is changing a listing's availability: its owner, signed in (only their own
 * listings), or the holder of a signed reminder link for that listing, issued
 * for one version of its state (ADR 056, 063). Only a link is ever told
 * "availability.used".
 */
export type AvailabilityActor = { userId: string } | { link: { version: number } };

/** The listing as the actor may change it (never a deleted one), with its owner's standing. */
function currentState(db: DB, id: number, actor: AvailabilityActor) {
  let query = listingsWithOwner(db)
    .select(["listings.status", "listings.title", "listings.stateVersion", "users.status as ownerStatus"])
    .where("listings.id", "=", id)
    .where("listings.status", "!=", DELETED_STATUS);
  if ("userId" in actor) query = query.where("listings.userId", "=", actor.userId);
  return query.executeTakeFirst();
}

type State = NonNullable<Awaited<ReturnType<typeof currentState>>>;

/**
 * Why the actor may not change the listing now, or null. Checked on every
 * action, signed in or by link: a suspended owner's listings are hidden, and
 * the owner's standing is asked too so no row a suspension missed comes back.
 * A link does nothing to a pending listing (its review decides) and nothing
 * once the state it was issued for was decided since.
 */
function refusal(state: State | undefined, actor: AvailabilityActor): AvailabilityLinkCode | null {
  if (!state) return "listing.not_found";
  if (state.ownerStatus !== "active" || state.status === HIDDEN_STATUS) return "listing.hidden";
  if (!("link" in actor)) return null;
  if (state.status === PENDING_STATUS) return "listing.hidden";
  return Number(state.stateVersion) === actor.link.version ? null : "availability.used";
}

/** What an emailed link would act on (its page asks before acting): the title, or why not. */
export async function checkAvailabilityLink(
  db: DB,
  link: { listingId: number; version: number },
): Promise<Result<AvailabilityLinkCode, { title: string }>> {
  const actor = { link: { version: link.version } };
  const state = await currentState(db, link.listingId, actor);
  const refused = refusal(state, actor);
  if (refused || !state) return fail(refused ?? "listing.not_found");
  return { ok: true, title: state.title };
}

/**
 * Writes one decision: `columns` when the listing is still in the state it
 * was read in (a moderator hiding it meanwhile wins) and, for a link, still at
 * the version the link was issued for (two clicks at once: one acts).
 */
async function decide(
  db: DB,
  actor: AvailabilityActor,
  id: number,
  state: State,
  columns: { status: ListingStatus; expiresAt?: string; unconfirmedSince?: null },
  now: Date,
): Promise<AvailabilityLinkCode | null> {
  let update = db
    .updateTable("listings")
    .set((eb) => ({ ...columns, stateVersion: nextStateVersion(eb), updatedAt: now.toISOString() }))
    .where("id", "=", id)
    .where("status", "=", state.status);
  if ("link" in actor) update = update.where("stateVersion", "=", actor.link.version);
  const updated = await update.executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return "link" in actor ? "availability.used" : "listing.hidden";
  await invalidatePublicPages(db, [id], now);
  return null;
}

/**
 * Gives the listing another 30 days from now: renewing an expired ad,
 * 'Still available' on an active one, bringing back one said to be let
 * (ADR 056: confirming availability and renewing are the same act). A listing
 * hidden by a moderator stays hidden; a pending one stays pending (renewal is
 * no way around review).
 */
export async function confirmListing(
  db: DB,
  actor: AvailabilityActor,
  id: number,
  now = currentTime(),
): Promise<Result<AvailabilityLinkCode, { expiresAt: string; title: string }>> {
  const state = await currentState(db, id, actor);
  const refused = refusal(state, actor);
  if (refused || !state) return fail(refused ?? "listing.not_found");
  const expiresAt = expiryFrom(now);
  const columns: Parameters<typeof decide>[4] = {
    expiresAt,
    status: state.status === PENDING_STATUS ? PENDING_STATUS : LISTED_STATUS,
    // Confirmed: students' 'already let' reports before now no longer count (ADR 056).
    unconfirmedSince: null,
  };
  const problem = await decide(db, actor, id, state, columns, now);
  if (problem) return fail(problem);
  return { ok: true, expiresAt, title: state.title };
}

/** Renew from My Ads: the owner's own listing only. */
export function renewOwnerListing(db: DB, userId: string, id: number, now = currentTime()) {
  return confirmListing(db, { userId }, id, now);
}

/**
 * 'No longer available' (ADR 056): out of browse at once, its page says so,
 * and 'Still available' brings it back. Only an ad that is up (active or
 * expired) can be marked; hidden and pending ones keep their state.
 */
export async function markListingLet(
  db: DB,
  actor: AvailabilityActor,
  id: number,
  now = currentTime(),
): Promise<Result<AvailabilityLinkCode, { title: string }>> {
  const state = await currentState(db, id, actor);
  const refused =
    refusal(state, actor) ?? (state && !statusIn(LETTABLE_STATUSES, state.status) ? "listing.hidden" : null);
  if (refused || !state) return fail(refused ?? "listing.not_found");
  // Said already from My Ads: nothing to decide.
  if (state.status === LET_STATUS && !("link" in actor)) return { ok: true, title: state.title };
  const problem = await decide(db, actor, id, state, { status: LET_STATUS }, now);
  if (problem) return fail(problem);
  return { ok: true, title: state.title };
}

/** 'No longer available' from My Ads: the owner's own listing only. */
export function markOwnerListingLet(db: DB, userId: string, id: number, now = currentTime()) {
  return markListingLet(db, { userId }, id, now);
}
