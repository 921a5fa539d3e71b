export const LISTING_LIFETIME_DAYS = 30;

import { currentTime } from "./clock";

const DAY_MS = 24 * 60 * 60 * 1000;

/** SPEC.md section 4: days left until expiry, rounded up, never below 0. */
export function daysLeft(expiresAt: string | Date, now: Date = currentTime()): number {
  const ms = new Date(expiresAt).getTime() - now.getTime();
  return Math.max(0, Math.ceil(ms / DAY_MS));
}

export function expiryFrom(start: Date): string {
  return new Date(start.getTime() + LISTING_LIFETIME_DAYS * DAY_MS).toISOString();
}
