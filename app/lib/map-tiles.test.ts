import { afterEach, describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "~/security/headers.server";
import { mapTileOrigin, mapTiles, setMapTiles } from "./map-tiles";

// ADR 053: the browse map's tiles come from MAP_TILE_URL, and the CSP allows that one host.

afterEach(() => setMapTiles(undefined, undefined));

describe("map tiles", () => {
  it("are OpenStreetMap's standard tiles by default, credited as their licence asks", () => {
    expect(mapTiles()).toEqual({
      url: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
      attribution: "© OpenStreetMap contributors",
      attributionUrl: "https://www.openstreetmap.org/copyright",
    });
    expect(mapTileOrigin()).toBe("https://tile.openstreetmap.org");
  });

  it("come from MAP_TILE_URL when set, and the policy names that host instead", () => {
    setMapTiles("https://tiles.example.lk/osm/{z}/{x}/{y}.png", "© Example tiles, OpenStreetMap data");
    expect(mapTiles()).toEqual({
      url: "https://tiles.example.lk/osm/{z}/{x}/{y}.png",
      attribution: "© Example tiles, OpenStreetMap data",
      attributionUrl: null,
    });
    const policy = contentSecurityPolicy({ scripts: [], styles: [] });
    expect(policy).toContain("img-src 'self' data: blob: https://tiles.example.lk;");
    expect(policy).not.toContain("openstreetmap");
  });
});
