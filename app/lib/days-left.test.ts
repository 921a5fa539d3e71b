import { describe, expect, it } from "vitest";
import { daysLeft, expiryFrom, LISTING_LIFETIME_DAYS } from "./days-left";

const HOUR = 60 * 60 * 1000;
const created = new Date("2026-11-01T08:00:00.000Z");

describe("days left (the spec: 30 days from creation, rounded up, minimum 0)", () => {
  it("expires 30 days (720 hours) after creation", () => {
    expect(LISTING_LIFETIME_DAYS).toBe(30);
    expect(new Date(expiryFrom(created)).getTime() - created.getTime()).toBe(720 * HOUR);
  });

  it("shows 30 days right after posting", () => {
    expect(daysLeft(expiryFrom(created), created)).toBe(30);
  });

  it("rounds partial days up", () => {
    const expiresAt = expiryFrom(created);
    expect(daysLeft(expiresAt, new Date(created.getTime() + 1 * HOUR))).toBe(30);
    expect(daysLeft(expiresAt, new Date(created.getTime() + 25 * HOUR))).toBe(29);
    expect(daysLeft(expiresAt, new Date(created.getTime() + 719 * HOUR))).toBe(1);
  });

  it("is 0 at the expiry time and never negative afterwards", () => {
    const expiresAt = expiryFrom(created);
    expect(daysLeft(expiresAt, new Date(created.getTime() + 720 * HOUR))).toBe(0);
    expect(daysLeft(expiresAt, new Date(created.getTime() + 1000 * HOUR))).toBe(0);
  });

  it("accepts a Date as well as an ISO string", () => {
    const expiresAt = new Date(expiryFrom(created));
    expect(daysLeft(expiresAt, created)).toBe(30);
  });
});
