import { afterEach, describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "~/security/headers.server";
import { photoOrigin, photoUrl, setPhotoBaseUrl } from "./photo-urls";

// ADR 043: with PHOTO_BASE_URL (a CDN or the bucket's public address) the page
// markup points there, and the Content-Security-Policy lets the browser load images from it.

afterEach(() => setPhotoBaseUrl(undefined));

describe("where photos are fetched from", () => {
  it("is the app's own /photos by default, and images come only from the site", () => {
    expect(photoUrl("abc-400.webp")).toBe("/photos/abc-400.webp");
    expect(photoOrigin()).toBeNull();
    expect(contentSecurityPolicy({ scripts: [], styles: [] })).toContain(
      "img-src 'self' data: blob: https://tile.openstreetmap.org;",
    );
  });

  it("is PHOTO_BASE_URL when set, and the policy names that origin and no other", () => {
    setPhotoBaseUrl("https://cdn.bodima.lk/photos/");
    expect(photoUrl("abc-400.webp")).toBe("https://cdn.bodima.lk/photos/abc-400.webp");
    expect(contentSecurityPolicy({ scripts: [], styles: [] })).toContain(
      "img-src 'self' data: blob: https://cdn.bodima.lk https://tile.openstreetmap.org;",
    );
  });
});
