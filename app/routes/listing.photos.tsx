import { redirect } from "react-router";
import { PhotoLightbox } from "~/components/listing/photo-lightbox";
import type { Route } from "./+types/listing.photos";

/**
 * The listing page's full-screen photo viewer, delivered on demand (ADR 091):
 * ListingGallery calls fetcher.load() on this URL once the page is idle or a
 * photo is tapped, so React Router loads this module then (the viewer is not
 * part of the listing page's first load, and no import() helper is added to it).
 * The viewer needs nothing from the server. Opened directly, the URL leads to the listing.
 */
export function loader({ params }: Route.LoaderArgs) {
  // Encoded: whatever was in the address stays one path segment of this site.
  throw redirect(`/listing/${encodeURIComponent(params.slug)}`, 302);
}

export function clientLoader() {
  return { PhotoLightbox };
}

export default function ListingPhotos() {
  return null;
}
