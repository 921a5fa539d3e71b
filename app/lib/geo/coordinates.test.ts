import { describe, expect, it } from "vitest";
import {
  coordinatesFromMapLink,
  isInSriLanka,
  type LatLng,
  parseCoordinatePair,
  roundedForPublic,
  SRI_LANKA_BOUNDS,
} from "./coordinates";

const MORATUWA: LatLng = { latitude: 6.7951, longitude: 79.9009 };

// A place's `data=` blob as Google writes it: the pin (!3d/!4d) differs from the `@` map centre.
const UOM_DATA =
  "data=!3m1!4b1!4m6!3m5!1s0x3ae245390e6a3b9d:0x6a2b6bb0a1c1f7e3!8m2!3d6.7950823!4d79.9008674!16s%2Fm%2F03h7f1k?entry=ttu&g_ep=EgoyMDI1MDExNS4wIKXMDSoASAFQAw%3D%3D";
const SINHALA_MORATUWA_UNIVERSITY =
  "%E0%B6%B8%E0%B7%9C%E0%B6%BB%E0%B6%A7%E0%B7%94%E0%B7%80+%E0%B7%80%E0%B7%92%E0%B7%81%E0%B7%8A%E0%B7%80%E0%B7%80%E0%B7%92%E0%B6%AF%E0%B7%8A%E2%80%8D%E0%B6%BA%E0%B7%8F%E0%B6%BD%E0%B6%BA";

/** Links that carry coordinates, with what they must give. */
const LINKS_WITH_COORDINATES: [string, LatLng][] = [
  // A bare map view.
  ["https://www.google.com/maps/@6.7951,79.9009,17z", MORATUWA],
  ["https://www.google.com/maps/@6.7951,79.9009,17z?entry=ttu", MORATUWA],
  ["http://google.com/maps/@6.7951,79.9009,3a,75y,90t/data=!3m6!1e1!3m4!1sAF1QipN", MORATUWA],
  ["https://www.google.lk/maps/@6.9271,79.8612,15z?hl=si", { latitude: 6.9271, longitude: 79.8612 }],
  // Place pages: the pin in data= wins over the map centre.
  [
    `https://www.google.com/maps/place/University+of+Moratuwa/@6.7955,79.8984,17z/${UOM_DATA}`,
    { latitude: 6.7950823, longitude: 79.9008674 },
  ],
  [
    `https://www.google.lk/maps/place/${SINHALA_MORATUWA_UNIVERSITY}/@6.7955,79.8984,17z/${UOM_DATA}`,
    { latitude: 6.7950823, longitude: 79.9008674 },
  ],
  [
    "https://www.google.com/maps/place/Sunrise+Boarding+House,+Katubedda/@6.7989,79.8889,19z/data=!4m6!3m5!1s0x3ae245f1c2d0ab11:0x9c1f2e0d3b4a5c6d!8m2!3d6.7991247!4d79.8891336!16s%2Fg%2F11c5x_4q7z?hl=en",
    { latitude: 6.7991247, longitude: 79.8891336 },
  ],
  [
    "https://www.google.com/maps/place/Peradeniya+Junction/@7.2599,80.5977,16z/data=!4m14!1m7!3m6!1s0x0:0x0!2zN8KwMTUnMzUuNiJOIDgwwrAzNSc1MS43IkU!8m2!3d7.2598!4d80.5977",
    { latitude: 7.2598, longitude: 80.5977 },
  ],
  // A place page without a pin: the centre is all there is.
  [
    "https://www.google.com/maps/place/Nugegoda+Supermarket/@6.8649,79.8997,18z",
    { latitude: 6.8649, longitude: 79.8997 },
  ],
  // Coordinates as the place name, in degrees-minutes-seconds, as Google writes a dropped pin.
  [
    "https://www.google.com/maps/place/6%C2%B047'42.4%22N+79%C2%B054'03.2%22E/@6.7951,79.9009,17z",
    { latitude: 6 + 47 / 60 + 42.4 / 3600, longitude: 79 + 54 / 60 + 3.2 / 3600 },
  ],
  ["https://www.google.com/maps/place/7.2906,80.6337/@7.2906,80.6337,17z", { latitude: 7.2906, longitude: 80.6337 }],
  // Query parameters.
  ["https://maps.google.com/?q=6.7951,79.9009", MORATUWA],
  ["https://maps.google.com/maps?q=6.7951%2C79.9009&z=17", MORATUWA],
  ["https://maps.google.com/?q=loc:6.7951,79.9009", MORATUWA],
  ["https://maps.google.com/?q=loc:6.7951+79.9009+(Sunrise+Boarding)", MORATUWA],
  ["https://www.google.com/maps?q=6.7951,+79.9009&hl=en", MORATUWA],
  ["https://www.google.com/maps?q=6.7951%2C%2079.9009", MORATUWA],
  ["https://maps.google.com/?ll=6.7951,79.9009&z=16&t=m", MORATUWA],
  ["https://www.google.com/maps?q=+6.7951,+79.9009", MORATUWA],
  [
    "https://www.google.com/maps?q=6%C2%B047'42.4%22N+79%C2%B054'03.2%22E",
    { latitude: 6 + 47 / 60 + 42.4 / 3600, longitude: 79 + 54 / 60 + 3.2 / 3600 },
  ],
  [
    "https://www.google.com/maps?q=7%C2%B017%2726.2%22N%2080%C2%B038%2701.3%22E",
    { latitude: 7 + 17 / 60 + 26.2 / 3600, longitude: 80 + 38 / 60 + 1.3 / 3600 },
  ],
  ["https://www.google.com/maps/search/?api=1&query=6.7951,79.9009", MORATUWA],
  ["https://www.google.com/maps/search/?api=1&query=6.7951%2C79.9009", MORATUWA],
  [
    "https://www.google.com/maps/dir/?api=1&origin=6.9344,79.8428&destination=6.7951,79.9009&travelmode=walking",
    MORATUWA,
  ],
  ["https://www.google.com/maps/@?api=1&map_action=map&center=6.7951,79.9009&zoom=17", MORATUWA],
  // Coordinates in the path.
  ["https://www.google.com/maps/search/6.7951,+79.9009", MORATUWA],
  ["https://www.google.com/maps/search/6.7951,+79.9009/@6.79,79.90,15z?entry=ttu", MORATUWA],
  ["https://www.google.com/maps/dir/6.9344,79.8428/6.7951,79.9009/@6.86,79.87,13z", MORATUWA],
  // Signs, and the other hemispheres.
  ["https://www.google.com/maps/@-33.8568,151.2153,17z", { latitude: -33.8568, longitude: 151.2153 }],
  ["https://maps.google.com/?q=-22.9519,-43.2105", { latitude: -22.9519, longitude: -43.2105 }],
  ["https://maps.google.com/?q=%2B6.7951,%2B79.9009", MORATUWA],
  ["  https://maps.google.com/?q=6.7951,79.9009  ", MORATUWA],
];

/** Links from which no coordinates can honestly be read. */
const LINKS_WITHOUT_COORDINATES: [string, string][] = [
  ["https://maps.app.goo.gl/x7Yq9fZ2KpLmN3aB8", "a short link needs a request to expand"],
  ["https://goo.gl/maps/AbCdEf123456", "an old short link needs a request to expand"],
  ["https://maps.google.com/?q=Katubedda+Moratuwa", "a place named by text"],
  ["https://www.google.com/maps?q=Katubedda%2C+Moratuwa&ll=6.79,79.90", "text named; ll is only the view"],
  ["https://www.google.com/maps/search/boarding+near+Moratuwa/@6.7951,79.9009,15z", "a search's view centre"],
  ["https://www.google.com/maps/dir/6.9344,79.8428/Colombo+Fort/@6.9,79.85,13z", "a destination named by text"],
  ["https://www.google.com/maps/place/Moratuwa/data=!4m2!3m1!1s0x3ae245", "a place with no pin or centre"],
  ["https://www.google.com/maps", "a link to the map itself"],
  ["https://www.google.com/search?q=6.7951,79.9009", "Google search, not Maps"],
  ["https://www.google.com/mapsearch?q=6.7951,79.9009", "a path that only starts with the letters maps"],
  ["https://example.com/maps/@6.7951,79.9009,17z", "a host that is not Google"],
  ["https://maps.google.com.evil.example/?q=6.7951,79.9009", "a host that only starts like Google's"],
  ["https://www.openstreetmap.org/#map=17/6.7951/79.9009", "another map service"],
  ["ftp://maps.google.com/?q=6.7951,79.9009", "not a web link"],
  ["javascript:alert(1)//maps.google.com/?q=6.7951,79.9009", "not a web link"],
  ["https://www.google.com/maps/@95.1,79.9009,17z", "latitude beyond 90"],
  ["https://maps.google.com/?q=6.7951,180.5", "longitude beyond 180"],
  ["https://maps.google.com/?q=-91,79.9", "latitude below -90"],
  ["https://www.google.com/maps/place/X/@6.79,79.90,17z/data=!8m2!3d96.1!4d79.9", "a pin off the globe"],
  ["https://maps.google.com/?q=6%C2%B075'42.4%22N+79%C2%B054'03.2%22E", "75 minutes"],
  ["https://maps.google.com/?q=6.79N,79.90N", "two latitudes"],
  ["https://www.google.com/maps/search/%E0%B6%B8%E0%B7%9C%E0%B6%BB%E0%B6%A7%E0%B7%94%E0%B7%80", "Sinhala text"],
  ["https://www.google.com/maps/place/%E0%B6%ZZ/@%ZZ", "a malformed escape"],
  ["www.google.com/maps/@6.7951,79.9009,17z", "no scheme: not a URL"],
  ["6.7951, 79.9009", "coordinates, not a link"],
  ["", "empty"],
  ["not a url at all", "text"],
];

describe("coordinatesFromMapLink", () => {
  it.each(LINKS_WITH_COORDINATES)("reads %s", (link, expected) => {
    const point = coordinatesFromMapLink(link);
    expect(point).not.toBeNull();
    expect(point!.latitude).toBeCloseTo(expected.latitude, 9);
    expect(point!.longitude).toBeCloseTo(expected.longitude, 9);
  });

  it.each(LINKS_WITHOUT_COORDINATES)("returns null for %s (%s)", (link) => {
    expect(coordinatesFromMapLink(link)).toBeNull();
  });

  it("prefers the place's pin to the map centre", () => {
    const link = `https://www.google.com/maps/place/University+of+Moratuwa/@6.7955,79.8984,17z/${UOM_DATA}`;
    expect(coordinatesFromMapLink(link)).toEqual({ latitude: 6.7950823, longitude: 79.9008674 });
  });

  it("takes the destination, not the origin, of directions", () => {
    const link = "https://www.google.com/maps/dir/?api=1&origin=7.2906,80.6337&destination=6.9271,79.8612";
    expect(coordinatesFromMapLink(link)).toEqual({ latitude: 6.9271, longitude: 79.8612 });
  });

  it("never throws, whatever it is given", () => {
    const odd: unknown[] = [
      null,
      undefined,
      42,
      {},
      [],
      "https://",
      "https://www.google.com/maps/place/%",
      `https://maps.google.com/?q=${"6".repeat(5000)},${"7".repeat(5000)}`,
      `https://www.google.com/maps/@${"1".repeat(20000)}`,
      `https://maps.google.com/?q=${" ".repeat(3000)}6°`,
    ];
    for (const input of odd) {
      expect(() => coordinatesFromMapLink(input as string)).not.toThrow();
      expect(coordinatesFromMapLink(input as string)).toBeNull();
    }
  });

  it("has a corpus of at least 20 links with coordinates", () => {
    expect(LINKS_WITH_COORDINATES.length).toBeGreaterThanOrEqual(20);
  });
});

describe("parseCoordinatePair", () => {
  it.each([
    ["6.7951, 79.9009", MORATUWA],
    ["6.7951,79.9009", MORATUWA],
    ["  6.7951 ,  79.9009 ", MORATUWA],
    ["6.7951 79.9009", MORATUWA],
    ["+6.7951, +79.9009", MORATUWA],
    ["-6.7951, -79.9009", { latitude: -6.7951, longitude: -79.9009 }],
    ["6.7951° N, 79.9009° E", MORATUWA],
    ["6.7951S 79.9009W", { latitude: -6.7951, longitude: -79.9009 }],
    ["79.9009E, 6.7951N", MORATUWA],
    [`6°47'42.4"N 79°54'03.2"E`, { latitude: 6 + 47 / 60 + 42.4 / 3600, longitude: 79 + 54 / 60 + 3.2 / 3600 }],
    [`6° 47' 42.4" N, 79° 54' 3.2" E`, { latitude: 6 + 47 / 60 + 42.4 / 3600, longitude: 79 + 54 / 60 + 3.2 / 3600 }],
    ["6°47.706'N 79°54.053'E", { latitude: 6 + 47.706 / 60, longitude: 79 + 54.053 / 60 }],
    ["90, 180", { latitude: 90, longitude: 180 }],
    ["-90, -180", { latitude: -90, longitude: -180 }],
  ])("reads %j", (text, expected) => {
    const point = parseCoordinatePair(text);
    expect(point).not.toBeNull();
    expect(point!.latitude).toBeCloseTo(expected.latitude, 9);
    expect(point!.longitude).toBeCloseTo(expected.longitude, 9);
  });

  it.each([
    "",
    "6.7951",
    "6.7951, 79.9009, 17",
    "6.7951; 79.9009",
    "Katubedda, Moratuwa",
    "No. 12, 3rd Lane",
    "90.0001, 79.9",
    "6.79, 180.0001",
    "-90.5, 0",
    "6.79N, 79.90N",
    "79.90E, 79.90E",
    "-6.79S, 79.90",
    `6°60'00"N 79°54'03"E`,
    `6°47'60"N 79°54'03"E`,
    `6.5°47'N 79°54'E`,
    "6,7951 79,9009",
    "six, seventy-nine",
  ])("returns null for %j", (text) => {
    expect(parseCoordinatePair(text)).toBeNull();
  });

  it("never returns -0", () => {
    expect(Object.is(parseCoordinatePair("-0.0, -0")!.latitude, 0)).toBe(true);
  });
});

describe("isInSriLanka", () => {
  it.each([
    ["Colombo", 6.93, 79.85],
    ["Jaffna", 9.66, 80.02],
    ["Point Pedro", 9.82, 80.23],
    ["Delft island", 9.52, 79.69],
    ["Nainativu", 9.61, 79.77],
    ["Mannar town", 8.98, 79.9],
    ["Talaimannar pier", 9.087, 79.727],
    ["Kalpitiya", 8.23, 79.76],
    ["Dondra Head", 5.92, 80.59],
    ["Galle", 6.03, 80.22],
    ["Arugam Bay", 6.84, 81.83],
    ["Kalmunai", 7.41, 81.83],
    ["Sangamankanda Point", 7.02, 81.88],
    ["Trincomalee", 8.57, 81.23],
    ["Mullaitivu", 9.27, 80.82],
    ["Kandy", 7.29, 80.63],
    ["University of Moratuwa", 6.7951, 79.9009],
  ])("holds %s", (_name, latitude, longitude) => {
    expect(isInSriLanka({ latitude, longitude })).toBe(true);
  });

  it.each([
    ["Rameswaram", 9.288, 79.313],
    ["Dhanushkodi", 9.17, 79.42],
    ["Point Calimere", 10.28, 79.86],
    ["Kanyakumari", 8.08, 77.54],
    ["Thoothukudi", 8.76, 78.13],
    ["Chennai", 13.08, 80.27],
    ["Male, Maldives", 4.17, 73.51],
    ["London", 51.5074, -0.1278],
    ["null island", 0, 0],
    ["Colombo with its numbers swapped", 79.85, 6.93],
    ["Colombo's antipode", -6.93, -100.15],
  ])("excludes %s", (_name, latitude, longitude) => {
    expect(isInSriLanka({ latitude, longitude })).toBe(false);
  });

  it("is false for points that are not numbers", () => {
    expect(isInSriLanka({ latitude: Number.NaN, longitude: 79.85 })).toBe(false);
    expect(isInSriLanka({ latitude: 6.93, longitude: Number.POSITIVE_INFINITY })).toBe(false);
  });

  it("is a small polygon, not a box", () => {
    expect(SRI_LANKA_BOUNDS.length).toBeGreaterThan(4);
    expect(SRI_LANKA_BOUNDS.length).toBeLessThan(30);
  });
});

describe("roundedForPublic", () => {
  it("rounds to 3 decimal places", () => {
    expect(roundedForPublic({ latitude: 6.7950823, longitude: 79.9008674 })).toEqual({
      latitude: 6.795,
      longitude: 79.901,
    });
    expect(roundedForPublic({ latitude: -33.85679, longitude: 151.21529 })).toEqual({
      latitude: -33.857,
      longitude: 151.215,
    });
  });

  it("moves a point by no more than about 80 m", () => {
    const point = { latitude: 6.7954999, longitude: 79.9004999 };
    const rounded = roundedForPublic(point);
    expect(Math.abs(rounded.latitude - point.latitude)).toBeLessThanOrEqual(0.0005);
    expect(Math.abs(rounded.longitude - point.longitude)).toBeLessThanOrEqual(0.0005);
  });

  it("gives 0, not -0, just south of the equator", () => {
    expect(Object.is(roundedForPublic({ latitude: -0.0001, longitude: -0.0004 }).latitude, 0)).toBe(true);
    expect(Object.is(roundedForPublic({ latitude: -0.0001, longitude: -0.0004 }).longitude, 0)).toBe(true);
  });
});
