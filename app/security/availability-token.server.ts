import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The one-click links of the availability emails (ADR 056, 063):
 * `/availability/{listing}.{answer}.{state version}.{valid until, epoch seconds}.{HMAC}`.
 * The signature (the app's secret) covers all four, so a link does one thing
 * to one listing: changing the ad number, the answer, the version or the time
 * breaks it. The version is the listing's stateVersion when the email was
 * written; the link acts only while the listing is still at it, so it works
 * once and not after any later decision (the model checks that). No sign-in
 * is needed to use one.
 */
export type AvailabilityAnswer = "yes" | "no";
export type AvailabilityLink = { listingId: number; answer: AvailabilityAnswer; version: number };

/** How long a reminder's links work. */
export const AVAILABILITY_LINK_DAYS = 7;

const TOKEN = /^(\d{1,12})\.(yes|no)\.(\d{1,12})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

function signature(secret: string, link: AvailabilityLink, validUntil: number): string {
  return createHmac("sha256", secret)
    .update(`bodima-availability-v2:${link.listingId}:${link.answer}:${link.version}:${validUntil}`)
    .digest("base64url");
}

export function availabilityToken(secret: string, link: AvailabilityLink, now: Date): string {
  const validUntil = Math.floor(now.getTime() / 1000) + AVAILABILITY_LINK_DAYS * 24 * 60 * 60;
  return `${link.listingId}.${link.answer}.${link.version}.${validUntil}.${signature(secret, link, validUntil)}`;
}

/** What a link asks, or why it cannot: made up or altered ("invalid"), or too old ("expired"). */
export function readAvailabilityToken(
  secret: string,
  token: string,
  now: Date,
): { ok: true; link: AvailabilityLink } | { ok: false; problem: "invalid" | "expired" } {
  const match = TOKEN.exec(token);
  if (!match) return { ok: false, problem: "invalid" };
  const link: AvailabilityLink = {
    listingId: Number(match[1]),
    answer: match[2] as AvailabilityAnswer,
    version: Number(match[3]),
  };
  const validUntil = Number(match[4]);
  const given = Buffer.from(match[5], "latin1");
  const expected = Buffer.from(signature(secret, link, validUntil), "latin1");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, problem: "invalid" };
  if (now.getTime() / 1000 > validUntil) return { ok: false, problem: "expired" };
  return { ok: true, link };
}
