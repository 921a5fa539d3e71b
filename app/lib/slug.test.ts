import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { adNumberFromSlug, parseAdNumber, slugify } from "./slug";

describe("slugify", () => {
  it("lowercases the title, drops punctuation, turns spaces into hyphens and appends the ad number", () => {
    expect(slugify("Room near Moratuwa Uni!", 1001)).toBe("room-near-moratuwa-uni-1001");
    expect(slugify("Annex (2 rooms), A/C & WiFi", "1042")).toBe("annex-2-rooms-ac-wifi-1042");
  });

  it("collapses runs of spaces and hyphens and trims them at the ends", () => {
    expect(slugify("  Quiet   room -- near   campus  ", 1001)).toBe("quiet-room-near-campus-1001");
    expect(slugify("-Boarding-", 1001)).toBe("boarding-1001");
  });

  it("drops accents instead of the letters", () => {
    expect(slugify("Café Résidence", 1001)).toBe("cafe-residence-1001");
  });

  it("falls back to 'listing' when the title has no Latin letters or digits (Sinhala, Tamil)", () => {
    expect(slugify("බෝඩිම කාමරය", 1001)).toBe("listing-1001");
    expect(slugify("அறை வாடகைக்கு", 1002)).toBe("listing-1002");
    expect(slugify("!!!", 1003)).toBe("listing-1003");
  });

  it("keeps Latin words of a mixed-script title", () => {
    expect(slugify("බෝඩිම Room Kandy", 1001)).toBe("room-kandy-1001");
  });

  it("keeps slugs short for very long titles", () => {
    const slug = slugify("very long title ".repeat(20), 1001);
    expect(slug.endsWith("-1001")).toBe(true);
    expect(slug.length).toBeLessThanOrEqual(80 + "-1001".length);
    expect(slug).not.toMatch(/--/);
  });

  it("always gives a URL-safe slug whose ad number can be read back", () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1001, max: 99_999_999 }), (title, adNumber) => {
        const slug = slugify(title, adNumber);
        expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(adNumberFromSlug(slug)).toBe(adNumber);
      }),
    );
  });
});

describe("adNumberFromSlug", () => {
  it("reads the ad number at the end of a slug", () => {
    expect(adNumberFromSlug("room-near-campus-1042")).toBe(1042);
    expect(adNumberFromSlug("old-title-1001")).toBe(1001);
    expect(adNumberFromSlug("1001")).toBe(1001);
  });

  it("returns null when there is no number at the end", () => {
    expect(adNumberFromSlug("room-near-campus")).toBeNull();
    expect(adNumberFromSlug("")).toBeNull();
    expect(adNumberFromSlug("room-0")).toBeNull();
    expect(adNumberFromSlug("room1001")).toBeNull();
  });

  it("refuses numbers too long to be an ad number", () => {
    expect(adNumberFromSlug("room-1234567890123")).toBeNull();
    expect(adNumberFromSlug("room-2147483648")).toBeNull();
    expect(adNumberFromSlug("room-2147483647")).toBe(2147483647);
  });

  it("parses ad numbers in PostgreSQL's integer range only", () => {
    expect(parseAdNumber("1001")).toBe(1001);
    for (const bad of [undefined, "", "0", "-1", "1e3", "1.5", " 1001", "2147483648", "99999999999"])
      expect(parseAdNumber(bad)).toBeNull();
  });
});

describe("slugify in three scripts", () => {
  it("gives a Sinhala or Tamil title the ad number's slug", () => {
    expect(slugify("ශ්‍රී ජයවර්ධනපුර කැම්පස් අසල කාමර", 1234)).toBe("listing-1234");
    expect(slugify("யாழ்ப்பாணம் பல்கலைக்கழகம் அருகில் அறை", 1235)).toBe("listing-1235");
  });

  it("leaves out the few Latin words or digits of a title written mostly in Sinhala or Tamil", () => {
    expect(slugify("A/C සහිත කාමරය කැම්පස් අසල", 1001)).toBe("listing-1001");
    expect(slugify("அறை 2 வாடகைக்கு, WiFi", 1002)).toBe("listing-1002");
    expect(slugify("කාමර 2", 1003)).toBe("listing-1003");
  });

  it("keeps the Latin words of a title written mostly in English", () => {
    expect(slugify("Room near campus (කාමරය)", 1001)).toBe("room-near-campus-1001");
    expect(slugify("Annex for rent, யாழ்ப்பாணம்", 1002)).toBe("annex-for-rent-1002");
  });

  it("needs a letter: digits alone do not make a slug", () => {
    expect(slugify("2", 1001)).toBe("listing-1001");
    expect(slugify("0771234567", 1001)).toBe("listing-1001");
  });

  it("keeps the ad number readable from every such slug, so old addresses still redirect", () => {
    for (const title of ["බෝඩිම කාමරය", "அறை", "Room", "2"]) {
      expect(adNumberFromSlug(slugify(title, 2_147_483_647))).toBe(2_147_483_647);
    }
  });
});
