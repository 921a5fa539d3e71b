import { describe, expect, it } from "vitest";
import { newRandomId, signVisitorId, verifyVisitorId } from "./visitor-id.server";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const SECRET = "k".repeat(64);

describe("signed visitor ids", () => {
  it("accepts what this server signed and nothing else", () => {
    const id = newRandomId();
    const signed = signVisitorId(SECRET, id);
    expect(verifyVisitorId(SECRET, signed)).toBe(id);
    expect(verifyVisitorId("other".repeat(13), signed)).toBeNull();
    expect(verifyVisitorId(SECRET, id)).toBeNull();
    expect(verifyVisitorId(SECRET, `${newRandomId()}${signed.slice(32)}`)).toBeNull();
    expect(verifyVisitorId(SECRET, `${signed}x`)).toBeNull();
  });

  it("refuses the other spellings of the same signature bytes (the last character's unused bits)", () => {
    for (let i = 0; i < 20; i++) {
      const signed = signVisitorId(SECRET, newRandomId());
      const last = ALPHABET.indexOf(signed.at(-1)!);
      // 32 bytes in 43 characters: the last one holds 4 bits and 2 that must be zero.
      expect(last & 3).toBe(0);
      for (const spare of [1, 2, 3]) {
        expect(verifyVisitorId(SECRET, `${signed.slice(0, -1)}${ALPHABET[last | spare]}`)).toBeNull();
      }
    }
  });

  it("remembers values it verified, but never lets that vouch for another value or another secret", () => {
    const id = newRandomId();
    const signed = signVisitorId(SECRET, id);
    // Verified once, then again from memory.
    expect(verifyVisitorId(SECRET, signed)).toBe(id);
    expect(verifyVisitorId(SECRET, signed)).toBe(id);
    // The remembered value is the whole cookie: the same id with any other signature is refused.
    const last = signed.at(-5) === "A" ? "B" : "A";
    expect(verifyVisitorId(SECRET, `${signed.slice(0, -5)}${last}${signed.slice(-4)}`)).toBeNull();
    // A value remembered under one secret is checked again under another (a rotated SESSION_SECRET).
    expect(verifyVisitorId("rotated".repeat(10), signed)).toBeNull();
    expect(verifyVisitorId(SECRET, signed)).toBe(id);
  });
});
