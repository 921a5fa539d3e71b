import { describe, expect, it } from "vitest";
import { isMapLink, locationLink } from "./location-link";

describe("locationLink", () => {
  it("opens a stored Google Maps link directly, labelled with its q parameter", () => {
    const href = "https://www.google.com/maps?q=Katubedda%2C+Moratuwa";
    expect(locationLink(href)).toEqual({ href, label: "Katubedda, Moratuwa", kind: "map" });
  });

  it("opens maps.google.com links directly", () => {
    const href = "https://maps.google.com/?q=Peradeniya";
    expect(locationLink(href)).toEqual({ href, label: "Peradeniya", kind: "map" });
  });

  it("gives no label for a map link without q, so the page says 'View Location'", () => {
    const short = "https://maps.app.goo.gl/AbCdEf123";
    expect(locationLink(short)).toEqual({ href: short, label: null, kind: "map" });
    const place = "https://www.google.com/maps/place/University+of+Moratuwa/@6.79,79.90,17z";
    expect(locationLink(place)).toEqual({ href: place, label: null, kind: "map" });
    expect(locationLink("https://goo.gl/maps/xyz")).toMatchObject({ kind: "map", label: null });
  });

  it("treats an empty q parameter as missing", () => {
    expect(locationLink("https://www.google.com/maps?q=%20")).toMatchObject({ kind: "map", label: null });
  });

  it("turns plain text into a maps search labelled with the text", () => {
    expect(locationLink("  Near Katubedda junction, Moratuwa ")).toEqual({
      href: "https://www.google.com/maps/search/?api=1&query=Near%20Katubedda%20junction%2C%20Moratuwa",
      label: "Near Katubedda junction, Moratuwa",
      kind: "search",
    });
  });

  it("treats a link that is not a map link as text to search for", () => {
    const other = "https://example.com/maps?q=Kandy";
    const link = locationLink(other);
    expect(link.kind).toBe("search");
    expect(link.label).toBe(other);
    expect(link.href).toBe(`https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(other)}`);
    // www.google.com outside /maps is a web search, not a map.
    expect(locationLink("https://www.google.com/search?q=Kandy").kind).toBe("search");
  });

  it("never opens a script URL", () => {
    const link = locationLink("javascript:alert(1)");
    expect(link.kind).toBe("search");
    expect(link.href?.startsWith("https://www.google.com/maps/search/")).toBe(true);
  });

  it("has no link when there is no location ('Location not specified')", () => {
    expect(locationLink(null)).toEqual({ href: null, label: null, kind: "none" });
    expect(locationLink(undefined)).toEqual({ href: null, label: null, kind: "none" });
    expect(locationLink("   ")).toEqual({ href: null, label: null, kind: "none" });
  });
});

describe("isMapLink", () => {
  it("accepts the four map hosts", () => {
    expect(isMapLink("https://maps.google.com/?q=x")).toBe(true);
    expect(isMapLink("https://www.google.com/maps/place/x")).toBe(true);
    expect(isMapLink("https://google.com/maps?q=x")).toBe(true);
    expect(isMapLink("https://maps.app.goo.gl/abc")).toBe(true);
    expect(isMapLink("https://goo.gl/maps/abc")).toBe(true);
  });

  it("refuses other hosts, other schemes and non-URLs", () => {
    expect(isMapLink("https://maps.google.com.evil.example/?q=x")).toBe(false);
    expect(isMapLink("ftp://maps.google.com/")).toBe(false);
    expect(isMapLink("Moratuwa")).toBe(false);
  });

  it("opens the listing's public position when it has one, unless the owner gave a map link (ADR 049)", () => {
    const point = { latitude: 6.795, longitude: 79.901 };
    expect(locationLink("Katubedda junction", point)).toEqual({
      href: "https://www.google.com/maps/search/?api=1&query=6.795,79.901",
      label: "Katubedda junction",
      kind: "map",
    });
    expect(locationLink(null, point)).toMatchObject({
      href: expect.stringContaining("query=6.795,79.901"),
      label: null,
    });
    const own = "https://maps.google.com/?q=6.7951,79.9009";
    expect(locationLink(own, point).href).toBe(own);
    expect(locationLink("Moratuwa", { latitude: null, longitude: null }).href).toContain("query=Moratuwa");
  });
});
