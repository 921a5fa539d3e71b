import { describe, expect, it } from "vitest";
import { type HoldSignal, otherListingIds, parseHoldSignals, SCAM_SIGNAL_IDS } from "./review-hold";
import { ownerReasonKey, ownerReasonKeys, scamRuleKey } from "./review-reasons";

const photo: HoldSignal = { kind: "photo-match", photoId: "p1", otherListingId: 7, otherPhotoId: "p9", distance: 4 };
const text: HoldSignal = { kind: "similar-description", otherListingId: 8, similarity: 0.91 };
const advance: HoldSignal = { kind: "scam", id: "advance-before-viewing", weight: 3, evidence: ["pay the advance"] };
const price: HoldSignal = { kind: "price", rent: 5000, typicalLow: 12000, typicalHigh: 20000 };

describe("held-for-review signals", () => {
  it("reads back what was stored, leaving out entries it no longer understands", () => {
    const stored = JSON.stringify([photo, { kind: "mystery" }, { ...text, similarity: 3 }, advance, price]);
    expect(parseHoldSignals(stored)).toEqual([photo, advance, price]);
    expect(parseHoldSignals("not json")).toEqual([]);
    expect(parseHoldSignals('{"kind":"price"}')).toEqual([]);
  });

  it("names the other listings a moderator must compare with, each once", () => {
    expect(otherListingIds([photo, { ...photo, photoId: "p2" }, text, advance])).toEqual([7, 8]);
  });

  it("gives the owner one sentence per kind of finding, and every scam rule its own", () => {
    expect(ownerReasonKeys([photo, { ...photo, photoId: "p2" }, advance, price])).toEqual([
      "review.owner.photoMatch",
      "review.owner.scam.advancePayment",
      "review.owner.price",
    ]);
    const scamKeys = SCAM_SIGNAL_IDS.map((id) => ownerReasonKey({ kind: "scam", id, weight: 1, evidence: [] }));
    expect(new Set(scamKeys).size).toBe(SCAM_SIGNAL_IDS.length);
    expect(new Set(SCAM_SIGNAL_IDS.map(scamRuleKey)).size).toBe(SCAM_SIGNAL_IDS.length);
  });
});
