import { z } from "zod";

/**
 * What a trust check found when it held a listing for review (ADR 078): the
 * signals stored with the hold (listing_holds.signals, JSON), shown to the
 * moderator in full and to the owner as a sentence each (review-reasons.ts).
 * Types and the parser of the stored JSON.
 */

/** The scam rules a listing can trip (the rules engine names them by these ids). */
export const SCAM_SIGNAL_IDS = [
  "advance-before-viewing",
  "money-transfer",
  "owner-abroad",
  "no-viewing",
  "shared-phone-or-network",
] as const;
export type ScamSignalId = (typeof SCAM_SIGNAL_IDS)[number];

const photoMatch = z.object({
  kind: z.literal("photo-match"),
  /** The held listing's photo that matched. */
  photoId: z.string(),
  otherListingId: z.number().int(),
  otherPhotoId: z.string(),
  /** Hamming distance of the 64-bit fingerprints (0: the same picture). */
  distance: z.number().int().min(0).max(64),
});

const similarDescription = z.object({
  kind: z.literal("similar-description"),
  otherListingId: z.number().int(),
  /** Jaccard similarity of the word shingles, 0 to 1. */
  similarity: z.number().min(0).max(1),
});

const scam = z.object({
  kind: z.literal("scam"),
  id: z.enum(SCAM_SIGNAL_IDS),
  weight: z.number(),
  /** The phrases found in the listing's text, as written. */
  evidence: z.array(z.string()),
});

const price = z.object({
  kind: z.literal("price"),
  rent: z.number().int(),
  typicalLow: z.number().int(),
  typicalHigh: z.number().int(),
});

const holdSignal = z.discriminatedUnion("kind", [photoMatch, similarDescription, scam, price]);

export type HoldSignal = z.infer<typeof holdSignal>;
export type PhotoMatchSignal = z.infer<typeof photoMatch>;
export type SimilarDescriptionSignal = z.infer<typeof similarDescription>;
export type ScamSignal = z.infer<typeof scam>;
export type PriceSignal = z.infer<typeof price>;

/** The stored JSON's signals; an entry no longer understood is left out rather than breaking the queue. */
export function parseHoldSignals(json: string): HoldSignal[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry) => {
    const parsed = holdSignal.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The other listings a signal compares with (photo and description matches). */
export function otherListingIds(signals: readonly HoldSignal[]): number[] {
  const ids = signals.flatMap((s) =>
    s.kind === "photo-match" || s.kind === "similar-description" ? [s.otherListingId] : [],
  );
  return [...new Set(ids)];
}
