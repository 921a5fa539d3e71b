export const LISTING_LIFETIME_DAYS = 30;

import { currentTime } from "./clock";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days left until expiry, rounded up, never below 0. */
export function daysLeft(expiresAt: string | Date, now: Date = currentTime()): number {
  const ms = new Date(expiresAt).getTime() - now.getTime();
  return Math.max(0, Math.ceil(ms / DAY_MS));
}

export function expiryFrom(start: Date): string {
  return new Date(start.getTime() + LISTING_LIFETIME_DAYS * DAY_MS).toISOString();
}

/**
 * When the owner last said the place is available (ADR 056): posting,
 * renewing and 'Still available' each give a listing LISTING_LIFETIME_DAYS from
 * that moment, so the confirmation is its expiry less that lifetime.
 */
export function confirmedAt(expiresAt: string): Date {
  return new Date(new Date(expiresAt).getTime() - LISTING_LIFETIME_DAYS * DAY_MS);
}

/** Whole days since the last confirmation, 0 on the day itself. */
export function daysSinceConfirmed(expiresAt: string, now: Date = currentTime()): number {
  return Math.max(0, Math.floor((now.getTime() - confirmedAt(expiresAt).getTime()) / DAY_MS));
}

/** The expiry of a listing confirmed `days` days before `now` (the 'confirmed in the last N days' filter). */
export function expiryOfConfirmation(days: number, now: Date = currentTime()): string {
  return expiryFrom(new Date(now.getTime() - days * DAY_MS));
}
