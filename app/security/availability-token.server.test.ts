import { describe, expect, it } from "vitest";
import { availabilityToken, readAvailabilityToken } from "./availability-token.server";

const SECRET = "k".repeat(64);
const now = new Date("2026-12-01T08:00:00Z");
const DAY = 24 * 60 * 60 * 1000;

describe("availability links", () => {
  it("say which listing, which answer and which version of its state, for 7 days", () => {
    const link = { listingId: 1234, answer: "no", version: 3 } as const;
    const token = availabilityToken(SECRET, link, now);
    expect(readAvailabilityToken(SECRET, token, now)).toEqual({ ok: true, link });
    expect(readAvailabilityToken(SECRET, token, new Date(now.getTime() + 7 * DAY - 1000)).ok).toBe(true);
    expect(readAvailabilityToken(SECRET, token, new Date(now.getTime() + 7 * DAY + 1000))).toEqual({
      ok: false,
      problem: "expired",
    });
  });

  it("cannot be turned to another listing, the other answer, another version or a later date, nor made with another secret", () => {
    const link = { listingId: 1234, answer: "yes", version: 3 } as const;
    const token = availabilityToken(SECRET, link, now);
    const [id, answer, version, until, mac] = token.split(".");
    for (const altered of [
      `1235.${answer}.${version}.${until}.${mac}`,
      `${id}.no.${version}.${until}.${mac}`,
      `${id}.${answer}.4.${until}.${mac}`,
      `${id}.${answer}.${version}.${Number(until) + 86400}.${mac}`,
      `${id}.${answer}.${version}.${until}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`,
      // A link of the format before versions (ADR 063): no longer accepted.
      `${id}.${answer}.${until}.${mac}`,
      availabilityToken("other".repeat(13), link, now),
      "1234.yes",
      "",
      "../../etc/passwd",
    ])
      expect(readAvailabilityToken(SECRET, altered, now)).toEqual({ ok: false, problem: "invalid" });
  });
});
