import { describe, expect, it } from "vitest";
import { availabilityToken, readAvailabilityToken } from "./availability-token.server";

const SECRET = "k".repeat(64);
const now = new Date("2026-12-01T08:00:00Z");
const DAY = 24 * 60 * 60 * 1000;

describe("availability links", () => {
  it("say which listing and which answer, for 7 days", () => {
    const token = availabilityToken(SECRET, 1234, "no", now);
    expect(readAvailabilityToken(SECRET, token, now)).toEqual({ ok: true, link: { listingId: 1234, answer: "no" } });
    expect(readAvailabilityToken(SECRET, token, new Date(now.getTime() + 7 * DAY - 1000)).ok).toBe(true);
    expect(readAvailabilityToken(SECRET, token, new Date(now.getTime() + 7 * DAY + 1000))).toEqual({
      ok: false,
      problem: "expired",
    });
  });

  it("cannot be turned to another listing, the other answer or a later date, nor made with another secret", () => {
    const token = availabilityToken(SECRET, 1234, "yes", now);
    const [id, answer, until, mac] = token.split(".");
    for (const altered of [
      `1235.${answer}.${until}.${mac}`,
      `${id}.no.${until}.${mac}`,
      `${id}.${answer}.${Number(until) + 86400}.${mac}`,
      `${id}.${answer}.${until}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`,
      availabilityToken("other".repeat(13), 1234, "yes", now),
      "1234.yes",
      "",
      "../../etc/passwd",
    ])
      expect(readAvailabilityToken(SECRET, altered, now)).toEqual({ ok: false, problem: "invalid" });
  });
});
