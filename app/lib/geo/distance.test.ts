import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LatLng } from "./coordinates";
import { boundingBox, distanceKm, EARTH_RADIUS_KM, walkingMinutes } from "./distance";

const UNIVERSITY_OF_MORATUWA: LatLng = { latitude: 6.7951, longitude: 79.9009 };
const COLOMBO_FORT_STATION: LatLng = { latitude: 6.9344, longitude: 79.8428 };
const JAFFNA: LatLng = { latitude: 9.6615, longitude: 80.0255 };
const DONDRA_HEAD: LatLng = { latitude: 5.92, longitude: 80.59 };

/**
 * The point `km` away from `from` along the great circle leaving on `bearing` degrees (0 = north),
 * by the standard spherical destination formula; independent of the code under test.
 */
function destination(from: LatLng, bearing: number, km: number): LatLng {
  const r = Math.PI / 180;
  const d = km / EARTH_RADIUS_KM;
  const lat1 = from.latitude * r;
  const lng1 = from.longitude * r;
  const theta = bearing * r;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(theta));
  const lng2 =
    lng1 + Math.atan2(Math.sin(theta) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return { latitude: lat2 / r, longitude: lng2 / r };
}

function inBox(box: ReturnType<typeof boundingBox>, point: LatLng): boolean {
  return (
    point.latitude >= box.minLat &&
    point.latitude <= box.maxLat &&
    point.longitude >= box.minLng &&
    point.longitude <= box.maxLng
  );
}

const COMPASS = [0, 45, 90, 135, 180, 225, 270, 315];

describe("distanceKm", () => {
  it("puts the University of Moratuwa about 16.7 km from Colombo Fort station", () => {
    // The haversine formula gives 16.765 km; maps put the straight line at about 16.7 km.
    expect(Math.abs(distanceKm(UNIVERSITY_OF_MORATUWA, COLOMBO_FORT_STATION) - 16.765)).toBeLessThan(0.1);
  });

  it("puts Jaffna about 305 km from Colombo", () => {
    expect(Math.abs(distanceKm(JAFFNA, { latitude: 6.9271, longitude: 79.8612 }) - 304.59)).toBeLessThan(0.1);
  });

  it("makes one degree along the equator 2πR/360 km", () => {
    const expected = (2 * Math.PI * EARTH_RADIUS_KM) / 360;
    expect(distanceKm({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 1 })).toBeCloseTo(expected, 9);
    expect(distanceKm({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 })).toBeCloseTo(expected, 9);
  });

  it("shrinks a degree of longitude by cos(latitude)", () => {
    // At 60°N a degree of longitude is close to half a degree at the equator.
    const atEquator = distanceKm({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 1 });
    const at60 = distanceKm({ latitude: 60, longitude: 0 }, { latitude: 60, longitude: 1 });
    expect(at60 / atEquator).toBeCloseTo(0.5, 3);
  });

  it("gives half the circumference for opposite points", () => {
    expect(distanceKm({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 180 })).toBeCloseTo(
      Math.PI * EARTH_RADIUS_KM,
      6,
    );
    expect(distanceKm({ latitude: 90, longitude: 0 }, { latitude: -90, longitude: 0 })).toBeCloseTo(
      Math.PI * EARTH_RADIUS_KM,
      6,
    );
  });

  it("is 0 from a point to itself", () => {
    expect(distanceKm(UNIVERSITY_OF_MORATUWA, UNIVERSITY_OF_MORATUWA)).toBe(0);
    expect(distanceKm(JAFFNA, { ...JAFFNA })).toBe(0);
  });

  it("is symmetric", () => {
    expect(distanceKm(COLOMBO_FORT_STATION, UNIVERSITY_OF_MORATUWA)).toBe(
      distanceKm(UNIVERSITY_OF_MORATUWA, COLOMBO_FORT_STATION),
    );
    const point = fc.record({
      latitude: fc.double({ min: -90, max: 90, noNaN: true }),
      longitude: fc.double({ min: -180, max: 180, noNaN: true }),
    });
    fc.assert(
      fc.property(point, point, (a, b) => {
        expect(distanceKm(a, b)).toBeCloseTo(distanceKm(b, a), 9);
      }),
    );
  });

  it("agrees with the destination formula it is tested against", () => {
    for (const bearing of COMPASS) {
      expect(distanceKm(DONDRA_HEAD, destination(DONDRA_HEAD, bearing, 3))).toBeCloseTo(3, 9);
    }
  });
});

describe("walkingMinutes", () => {
  it("walks 1.3 × the straight line at 4.8 km/h", () => {
    // 1 km straight → 1.3 km of street → 16.25 minutes → 17.
    expect(walkingMinutes(1)).toBe(17);
    // 0.5 km → 8.125 minutes → 9.
    expect(walkingMinutes(0.5)).toBe(9);
    // 1.6 km → 26 minutes exactly.
    expect(walkingMinutes(1.6)).toBe(26);
  });

  it("rounds up to whole minutes, so a short walk is at least a minute", () => {
    expect(walkingMinutes(0.01)).toBe(1);
    expect(walkingMinutes(0.05)).toBe(1);
    expect(walkingMinutes(0.07)).toBe(2);
  });

  it("is 0 for no distance", () => {
    expect(walkingMinutes(0)).toBe(0);
    expect(walkingMinutes(-1)).toBe(0);
  });

  it("keeps whole minutes up to 30", () => {
    // 1.84 km → 29.9 minutes → 30.
    expect(walkingMinutes(1.84)).toBe(30);
    // 1.78 km → 28.925 minutes → 29, not rounded to 5.
    expect(walkingMinutes(1.78)).toBe(29);
  });

  it("rounds up to a multiple of 5 above 30", () => {
    // 1.85 km → 30.06 minutes → 31 → 35.
    expect(walkingMinutes(1.85)).toBe(35);
    // 2 km → 32.5 → 33 → 35.
    expect(walkingMinutes(2)).toBe(35);
    // 2.2 km → 35.75 → 36 → 40.
    expect(walkingMinutes(2.2)).toBe(40);
    // 4 km → 65 minutes exactly stays 65.
    expect(walkingMinutes(4)).toBe(65);
  });

  it("never walks faster for a longer distance", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 50, noNaN: true }), fc.double({ min: 0, max: 50, noNaN: true }), (a, b) => {
        const [near, far] = a <= b ? [a, b] : [b, a];
        expect(walkingMinutes(near)).toBeLessThanOrEqual(walkingMinutes(far));
      }),
    );
  });

  it("puts Moratuwa's campus to Fort station at a long walk", () => {
    // 16.765 km × 16.25 min/km = 272.4 → 273 → 275.
    expect(walkingMinutes(distanceKm(UNIVERSITY_OF_MORATUWA, COLOMBO_FORT_STATION))).toBe(275);
  });
});

describe("boundingBox", () => {
  const centres: [string, LatLng][] = [
    ["University of Moratuwa", UNIVERSITY_OF_MORATUWA],
    ["Jaffna", JAFFNA],
    ["Dondra Head", DONDRA_HEAD],
    ["the equator", { latitude: 0, longitude: 0 }],
    ["Oslo", { latitude: 59.91, longitude: 10.75 }],
  ];

  describe.each(centres)("around %s", (_name, centre) => {
    it.each([0.5, 2, 10, 50])("holds the points %s km away in all 8 compass directions", (km) => {
      const box = boundingBox(centre, km);
      for (const bearing of COMPASS) {
        const edge = destination(centre, bearing, km);
        expect(inBox(box, edge), `bearing ${bearing}`).toBe(true);
      }
    });

    it.each([0.5, 2, 10, 50])("leaves out the points 1.5 × %s km away in all 8 directions", (km) => {
      const box = boundingBox(centre, km);
      for (const bearing of COMPASS) {
        const beyond = destination(centre, bearing, 1.5 * km);
        expect(inBox(box, beyond), `bearing ${bearing}`).toBe(false);
      }
    });
  });

  it("holds every point within the distance, at any bearing", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -70, max: 70, noNaN: true }),
        fc.double({ min: -170, max: 170, noNaN: true }),
        fc.double({ min: 0.01, max: 200, noNaN: true }),
        fc.double({ min: 0, max: 360, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (latitude, longitude, km, bearing, fraction) => {
          const centre = { latitude, longitude };
          expect(inBox(boundingBox(centre, km), destination(centre, bearing, km * fraction))).toBe(true);
        },
      ),
    );
  });

  it("reaches the circle's widest point, which lies poleward of the centre's latitude", () => {
    // At 60°N with a 1000 km radius, d / cos(φ) alone would miss the widest points of the circle.
    const centre = { latitude: 60, longitude: 0 };
    const km = 1000;
    const box = boundingBox(centre, km);
    let widest = 0;
    for (let bearing = 0; bearing <= 180; bearing += 0.5) {
      widest = Math.max(widest, destination(centre, bearing, km).longitude);
    }
    expect(box.maxLng).toBeGreaterThanOrEqual(widest);
    expect(box.maxLng - widest).toBeLessThan(0.01);
  });

  it("is about 2 km tall and, at Sri Lanka's latitudes, about 2 km wide for 1 km", () => {
    const box = boundingBox(UNIVERSITY_OF_MORATUWA, 1);
    const kmPerDegree = (2 * Math.PI * EARTH_RADIUS_KM) / 360;
    expect((box.maxLat - box.minLat) * kmPerDegree).toBeCloseTo(2, 6);
    const widthKm =
      (box.maxLng - box.minLng) * kmPerDegree * Math.cos((UNIVERSITY_OF_MORATUWA.latitude * Math.PI) / 180);
    expect(widthKm).toBeCloseTo(2, 6);
    expect(box.minLat).toBeLessThan(UNIVERSITY_OF_MORATUWA.latitude);
    expect(box.maxLng).toBeGreaterThan(UNIVERSITY_OF_MORATUWA.longitude);
  });

  it("spans every longitude when the circle reaches over a pole", () => {
    expect(boundingBox({ latitude: 89.99, longitude: 10 }, 5)).toEqual({
      minLat: expect.closeTo(89.99 - 5 / ((2 * Math.PI * EARTH_RADIUS_KM) / 360), 6),
      maxLat: 90,
      minLng: -180,
      maxLng: 180,
    });
  });

  it("is the centre itself for 0 km, give or take float slack", () => {
    const box = boundingBox(COLOMBO_FORT_STATION, 0);
    expect(box.minLat).toBeCloseTo(COLOMBO_FORT_STATION.latitude, 6);
    expect(box.maxLat).toBeCloseTo(COLOMBO_FORT_STATION.latitude, 6);
    expect(box.minLng).toBeCloseTo(COLOMBO_FORT_STATION.longitude, 6);
    expect(box.maxLng).toBeCloseTo(COLOMBO_FORT_STATION.longitude, 6);
  });
});
