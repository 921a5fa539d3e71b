import { describe, expect, it } from "vitest";
import { publicLocation, publicLocationText, publicPosition } from "./public-location";

// ADR 065: what the public sees of where a listing is, unless its owner shows the exact point.

const at = { latitude: 6.8842, longitude: 79.8761 };
const nowhere = { latitude: null, longitude: null };

describe("publicLocation", () => {
  it("turns a map link into a link to the position rounded to about 100 m", () => {
    const location = "https://maps.google.com/?q=6.8842,79.8761";
    expect(publicLocation({ location, ...at, exactPosition: false })).toBe(
      "https://www.google.com/maps/search/?api=1&query=6.884,79.876",
    );
  });

  it("keeps the owner's link and text as given when they show the exact point", () => {
    const location = "https://maps.google.com/?q=6.8842,79.8761";
    expect(publicLocation({ location, ...at, exactPosition: true })).toBe(location);
    expect(publicLocation({ location: "6.8842, 79.8761", ...nowhere, exactPosition: true })).toBe("6.8842, 79.8761");
  });

  it("publishes no short link, whose point cannot be rounded, and keeps the name a link searches for", () => {
    expect(publicLocation({ location: "https://maps.app.goo.gl/Zx8Pq2Lm9Rt", ...nowhere, exactPosition: false })).toBe(
      null,
    );
    expect(
      publicLocation({ location: "https://maps.google.com/?q=Katubedda+Junction", ...nowhere, exactPosition: false }),
    ).toBe("Katubedda Junction");
    const place = "https://www.google.com/maps/place/Lake+View+Annex/@6.8842,79.8761,17z";
    expect(publicLocation({ location: place, ...nowhere, exactPosition: false })).toBe("Lake View Annex");
    expect(
      publicLocation({ location: "https://www.google.com/maps/@6.8842,79.8761,17z", ...nowhere, exactPosition: false }),
    ).toBe(null);
  });

  it("gives nothing for nothing", () => {
    expect(publicLocation({ location: null, ...at, exactPosition: false })).toBe(null);
    expect(publicLocation({ location: "   ", ...at, exactPosition: true })).toBe(null);
  });
});

describe("publicLocationText", () => {
  it.each([
    ["Near the temple, 6.8842, 79.8761", "Near the temple, 6.884, 79.876"],
    ["6.88421N 79.87613E", "6.884N 79.876E"],
    [`6°53'03.1"N 79°52'34.0"E, lane by the school`, "6.884N 79.876E, lane by the school"],
    ["6° 53.05' N, 79° 52.57' E", "6.884N, 79.876E"],
    ["Behind the bakery https://maps.google.com/?q=6.8842,79.8761", "Behind the bakery"],
    ["Annex (maps.app.goo.gl/Zx8Pq2Lm9Rt) by the shop", "Annex by the shop"],
    ["see www.openstreetmap.org/#map=19/6.88420/79.87610 please", "see please"],
    ["VVMP+M7 Wellawatte", "Wellawatte"],
    ["6QXXVVMP+M7, Colombo 6", "Colombo 6"],
    ["///filled.count.soap by the tank", "by the tank"],
  ])("%s → %s", (typed, shown) => {
    expect(publicLocationText(typed)).toBe(shown);
  });

  it("leaves addresses, rounded numbers and other people's words alone", () => {
    for (const text of [
      "No.12/3, Temple Road, Katubedda",
      "No. 45 1/2, Galle Road",
      "6.884, 79.876",
      "Lane 2, 500 m from the gate",
      "කටුබැද්ද, පන්සල ළඟ",
      "கட்டுபெத்த, கோயில் அருகில்",
      "A+ grade hostel",
    ]) {
      expect(publicLocationText(text)).toBe(text);
    }
  });

  it("gives null when only a link was typed", () => {
    expect(publicLocationText("https://goo.gl/maps/abc")).toBe(null);
  });
});

describe("publicPosition", () => {
  it("rounds to about 100 m unless the owner shows the exact point", () => {
    expect(publicPosition({ ...at, exactPosition: false })).toEqual({ latitude: 6.884, longitude: 79.876 });
    expect(publicPosition({ ...at, exactPosition: true })).toEqual(at);
    expect(publicPosition({ ...nowhere, exactPosition: false })).toEqual(nowhere);
  });
});
