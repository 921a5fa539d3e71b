import { type ComponentType, useEffect, useRef, useState } from "react";
import { preload } from "react-dom";
import { useFetcher } from "react-router";
import { tapPhoto } from "~/components/ui/tap-photo";
import { useTranslation } from "~/i18n";
import type { ListingPhoto } from "~/schemas/listing-view";
import { ChevronIcon, useSwipe } from "./gallery-controls";
import type { PhotoLightboxProps } from "./photo-lightbox";
import "virtual:catalogue/listing";

// The photo column is at most about 46rem wide (app/routes/listing.tsx).
const MAIN_SIZES = "(min-width: 1024px) 46rem, 100vw";

/**
 * Photo gallery: previous/next that wrap around, thumbnails, an 'i / n'
 * counter and a full-screen lightbox. Without JavaScript the first photo
 * shows and every photo (thumbnails, main photo) is a link to its full image.
 * The lightbox's module comes from the listing's photos route (ADR 091) once the
 * page is idle, or at the first tap of the photo, whichever is first.
 */
export function ListingGallery({ photos, title, slug }: { photos: ListingPhoto[]; title: string; slug: string }) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const [lightboxOpen, setLightboxOpen] = useState(false);
  // Buttons that only work with JavaScript appear once it has loaded.
  const [enhanced, setEnhanced] = useState(false);
  const openerRef = useRef<HTMLAnchorElement>(null);
  const total = photos.length;
  const step = (delta: number) => setIndex((i) => (i + delta + total) % total);
  const swipe = useSwipe(step);

  const viewer = useFetcher<{ PhotoLightbox?: ComponentType<PhotoLightboxProps> }>();
  const Lightbox = viewer.data?.PhotoLightbox;
  const loadViewer = () => {
    if (!Lightbox && viewer.state === "idle") viewer.load(`/listing/${slug}/photos`);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, after hydration
  useEffect(() => {
    setEnhanced(true);
    if (!photos.length) return;
    // A fetcher whose route cannot be fetched fails into the page's error boundary: offline, the
    // viewer would replace the page being read with 'Something went wrong'. So it is fetched only
    // online, or once the connection is back.
    const whenOnline = () => {
      if (navigator.onLine) loadViewer();
      else window.addEventListener("online", whenOnline, { once: true });
    };
    const stop = () => window.removeEventListener("online", whenOnline);
    if (typeof requestIdleCallback !== "function") {
      const timer = setTimeout(whenOnline, 2000);
      return () => {
        clearTimeout(timer);
        stop();
      };
    }
    const id = requestIdleCallback(whenOnline, { timeout: 5000 });
    return () => {
      cancelIdleCallback(id);
      stop();
    };
  }, []);

  const photo = photos[index];
  // The first photo is the page's largest paint: hinted in <head>, before the parser reaches it.
  const first = photos[0];
  if (first && !first.tapToShow)
    preload(first.url, { as: "image", imageSrcSet: first.srcSet, imageSizes: MAIN_SIZES, fetchPriority: "high" });
  if (!photo) {
    return (
      <div className="flex aspect-[4/3] items-center justify-center rounded-xl bg-slate-100 text-slate-600">
        {t("listing.gallery.noPhotos")}
      </div>
    );
  }

  const navButton =
    "absolute top-1/2 inline-flex h-11 w-11 -translate-y-1/2 items-center justify-center rounded-full bg-white/90 text-slate-900 shadow hover:bg-white";

  return (
    <section aria-label={t("listing.gallery.label")}>
      <div className="relative aspect-[4/3] overflow-hidden rounded-xl bg-slate-100" {...swipe}>
        {tapPhoto(
          photo.tapToShow,
          <a
            ref={openerRef}
            href={photo.url}
            aria-label={t("listing.gallery.openFullScreen", { number: index + 1 })}
            // Inset focus ring: the rounded frame clips anything outside it.
            className="block h-full w-full focus-visible:outline-4 focus-visible:-outline-offset-4"
            onClick={(event) => {
              // Offline before the viewer came: the link to the photo is followed instead (ADR 091).
              if (!Lightbox && !navigator.onLine) return;
              event.preventDefault();
              loadViewer();
              setLightboxOpen(true);
            }}
          >
            <img
              src={photo.url}
              srcSet={photo.srcSet}
              sizes={MAIN_SIZES}
              width={photo.width}
              height={photo.height}
              alt={photo.alt}
              fetchPriority={index === 0 ? "high" : "auto"}
              loading={photo.tapToShow ? "lazy" : undefined}
              className="h-full w-full object-contain"
            />
          </a>,
        )}
        {enhanced && total > 1 ? (
          <>
            <button
              type="button"
              onClick={() => step(-1)}
              className={`${navButton} left-2`}
              aria-label={t("listing.gallery.previous")}
            >
              <ChevronIcon direction="left" />
            </button>
            <button
              type="button"
              onClick={() => step(1)}
              className={`${navButton} right-2`}
              aria-label={t("listing.gallery.next")}
            >
              <ChevronIcon direction="right" />
            </button>
          </>
        ) : null}
        {total > 1 ? (
          <p
            className="absolute bottom-2 right-2 rounded-full bg-black/75 px-3 py-1 text-sm font-medium text-white"
            aria-live="polite"
            data-testid="gallery-counter"
          >
            {t("listing.gallery.counter", { current: index + 1, total })}
          </p>
        ) : null}
      </div>

      {total > 1 ? (
        <ul className="mt-2 flex gap-2" aria-label={t("listing.gallery.thumbnails")}>
          {photos.map((thumb, i) => {
            const small = thumb.variants[0] ?? thumb;
            const selected = i === index;
            return (
              <li key={thumb.id}>
                <a
                  href={thumb.url}
                  aria-label={t("listing.gallery.showPhoto", { number: i + 1, total })}
                  aria-current={selected ? "true" : undefined}
                  onClick={(event) => {
                    event.preventDefault();
                    setIndex(i);
                  }}
                  className={`block h-16 w-20 overflow-hidden rounded-lg border-2 ${selected ? "border-brand-700" : "border-transparent opacity-80 hover:opacity-100"}`}
                >
                  {/* Data saver: the photo's number, a link to its smallest size (ADR 090). */}
                  {thumb.tapToShow ? (
                    i + 1
                  ) : (
                    <img
                      src={small.url}
                      width={small.width}
                      height={small.height}
                      alt=""
                      loading="lazy"
                      decoding="async"
                      className="h-full w-full object-cover"
                    />
                  )}
                </a>
              </li>
            );
          })}
        </ul>
      ) : null}

      {enhanced && Lightbox ? (
        <Lightbox
          photos={photos}
          title={title}
          index={index}
          open={lightboxOpen}
          onStep={step}
          swipe={swipe}
          Chevron={ChevronIcon}
          onClose={() => {
            setLightboxOpen(false);
            openerRef.current?.focus();
          }}
        />
      ) : null}
    </section>
  );
}
