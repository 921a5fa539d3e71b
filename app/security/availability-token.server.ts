import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The one-click links of the availability reminder (issue 13, ADR 056):
 * `/availability/{listing}.{answer}.{valid until, epoch seconds}.{HMAC}`. The
 * signature (the app's secret) covers the listing, the answer and the time, so
 * a link does one thing to one listing until it expires: changing the ad
 * number or the answer breaks it. No sign-in is needed to use one.
 */
export type AvailabilityAnswer = "yes" | "no";
export type AvailabilityLink = { listingId: number; answer: AvailabilityAnswer };

/** How long a reminder's links work. */
export const AVAILABILITY_LINK_DAYS = 7;

const TOKEN = /^(\d{1,12})\.(yes|no)\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

function signature(secret: string, listingId: number, answer: AvailabilityAnswer, validUntil: number): string {
  return createHmac("sha256", secret)
    .update(`bodima-availability:${listingId}:${answer}:${validUntil}`)
    .digest("base64url");
}

export function availabilityToken(secret: string, listingId: number, answer: AvailabilityAnswer, now: Date): string {
  const validUntil = Math.floor(now.getTime() / 1000) + AVAILABILITY_LINK_DAYS * 24 * 60 * 60;
  return `${listingId}.${answer}.${validUntil}.${signature(secret, listingId, answer, validUntil)}`;
}

/** What a link asks, or why it cannot: made up or altered ("invalid"), or too old ("expired"). */
export function readAvailabilityToken(
  secret: string,
  token: string,
  now: Date,
): { ok: true; link: AvailabilityLink } | { ok: false; problem: "invalid" | "expired" } {
  const match = TOKEN.exec(token);
  if (!match) return { ok: false, problem: "invalid" };
  const listingId = Number(match[1]);
  const answer = match[2] as AvailabilityAnswer;
  const validUntil = Number(match[3]);
  const given = Buffer.from(match[4], "latin1");
  const expected = Buffer.from(signature(secret, listingId, answer, validUntil), "latin1");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, problem: "invalid" };
  if (now.getTime() / 1000 > validUntil) return { ok: false, problem: "expired" };
  return { ok: true, link: { listingId, answer } };
}
