import { describe, expect, it } from "vitest";
import { inLocale } from "~/i18n/request-locale.server";
import { distanceKm, walkingMinutes } from "~/lib/geo/distance";
import { distanceLine } from "./distance.server";

const UOM = { latitude: 6.7951, longitude: 79.9009 };
const near = (northKm: number) => ({
  university: "University of Moratuwa",
  faculty: "Main Campus",
  city: "moratuwa",
  latitude: UOM.latitude + northKm / 111.2,
  longitude: UOM.longitude,
});

describe("distanceLine", () => {
  it("gives the straight line to the listing's own faculty and an estimated walk", () => {
    const listing = near(1.4);
    const km = distanceKm(listing, UOM);
    expect(distanceLine(listing)).toBe(
      `${km.toFixed(1)} km from University of Moratuwa, Moratuwa · about ${walkingMinutes(km)} min walk (estimate)`,
    );
  });

  it("writes metres under a kilometre and leaves the walk out beyond 5 km", () => {
    expect(distanceLine(near(0.83))).toMatch(/^850 m from University of Moratuwa/);
    const far = distanceLine(near(12));
    expect(far).toMatch(/^12 km from University of Moratuwa/);
    expect(far).not.toContain("walk");
  });

  it("counts from the city's centre without a position of its own, and says so", () => {
    const line = distanceLine({ ...near(0), latitude: null, longitude: null });
    expect(line).toMatch(
      /^About [\d.,]+ (k)?m from University of Moratuwa, Moratuwa \(approximate location: the centre of Moratuwa\)$/,
    );
  });

  it("says nothing for a faculty the directory does not know", () => {
    expect(distanceLine({ ...near(1), faculty: "Faculty of Dreams" })).toBeNull();
  });

  it("is written in Sinhala and Tamil too", () => {
    for (const locale of ["si", "ta"] as const) {
      const line = inLocale(locale, () => distanceLine(near(1.4)));
      expect(line).toContain("km");
      expect(line).not.toMatch(/[{}]|from|walk/);
    }
  });
});
