/**
 * Where browsers fetch photos from (ADR 043): the app's own /photos/{key} by
 * default, or PHOTO_BASE_URL (a CDN or the bucket's public address) when set.
 * Set once at start-up (app/services.server.ts); the page markup, the JSON API
 * and the Content-Security-Policy's img-src all read it here.
 */
let base = "/photos";
let origin: string | null = null;

export function setPhotoBaseUrl(url: string | undefined): void {
  base = url ? url.replace(/\/+$/, "") : "/photos";
  origin = url ? new URL(url).origin : null;
}

export function photoUrl(key: string): string {
  return `${base}/${key}`;
}

/** The origin photos come from when it is not the site's own (for img-src), else null. */
export function photoOrigin(): string | null {
  return origin;
}
