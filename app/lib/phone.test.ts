import { describe, expect, it } from "vitest";
import { localPhone, mobileE164, parseSriLankanPhone, toE164 } from "./phone";

describe("Sri Lankan numbers in E.164", () => {
  it.each([
    ["0771234567", "+94771234567"],
    ["077 123 4567", "+94771234567"],
    ["077-123-4567", "+94771234567"],
    ["+94771234567", "+94771234567"],
    ["+94 77 123 4567", "+94771234567"],
    ["+94 (0)77 123 4567", "+94771234567"],
    ["0094771234567", "+94771234567"],
    ["94771234567", "+94771234567"],
    [" 071.234.5678 ", "+94712345678"],
    ["(011) 234 5678", "+94112345678"],
  ])("reads %j as %s", (typed, e164) => {
    expect(toE164(typed)).toBe(e164);
  });

  it.each([
    "",
    "077123456", // a digit short
    "07712345678", // a digit too many
    "+14155550100", // not Sri Lanka
    "0071234567", // no national number starts with 0
    "+940771234567",
    "077 123 4567 ext 2",
    "phone me",
  ])("refuses %j", (typed) => {
    expect(toE164(typed)).toBeNull();
  });

  it("tells mobiles (+94 7x) from landlines and unused prefixes", () => {
    for (const prefix of ["70", "71", "72", "74", "75", "76", "77", "78"]) {
      expect(parseSriLankanPhone(`0${prefix}1234567`)).toEqual({ e164: `+94${prefix}1234567`, mobile: true });
    }
    expect(parseSriLankanPhone("0112345678")).toEqual({ e164: "+94112345678", mobile: false });
    expect(mobileE164("0112345678")).toBeNull();
    expect(mobileE164("0731234567")).toBeNull();
    expect(mobileE164("0791234567")).toBeNull();
    expect(mobileE164("+94 76 123 4567")).toBe("+94761234567");
  });

  it("shows the local 10-digit form people type", () => {
    expect(localPhone("+94771234567")).toBe("0771234567");
    expect(localPhone(toE164("0094 71 234 5678") ?? "")).toBe("0712345678");
  });
});
