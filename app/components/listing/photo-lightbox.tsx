import { type KeyboardEvent, useEffect, useRef } from "react";
import { CloseIcon } from "~/components/ui/icons";
import { useTranslation } from "~/i18n";
import type { ListingPhoto } from "~/schemas/listing-view";
import type { ChevronIcon, useSwipe } from "./gallery-controls";
// The catalogue "listing" comes with the page that renders this: an import here would split it
// into a chunk of its own on that page's first load (ADR 091).

export type PhotoLightboxProps = {
  photos: ListingPhoto[];
  title: string;
  index: number;
  open: boolean;
  onStep: (delta: number) => void;
  /**
   * The gallery's swipe handlers and chevron, lent so that they stay in the listing
   * page's own chunk instead of a third one shared with this on-demand module (ADR 091).
   */
  swipe: ReturnType<typeof useSwipe>;
  Chevron: typeof ChevronIcon;
  onClose: () => void;
};

const FOCUSABLE = "button:not([disabled]), [href], [tabindex]:not([tabindex='-1'])";

/**
 * Full-screen photo viewer on a native modal <dialog>: the page behind is
 * inert, Escape closes it, and Tab wraps inside it. The gallery returns
 * focus to the photo that opened it.
 */
export function PhotoLightbox({ photos, title, index, open, onStep, onClose, swipe, Chevron }: PhotoLightboxProps) {
  const { t } = useTranslation();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const total = photos.length;
  const photo = photos[index];

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
    if (!open) return;
    // The page behind must not scroll under a full-screen viewer.
    const root = document.documentElement;
    const previous = root.style.overflow;
    root.style.overflow = "hidden";
    return () => {
      root.style.overflow = previous;
    };
  }, [open]);

  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      event.preventDefault();
      onStep(event.key === "ArrowLeft" ? -1 : 1);
      return;
    }
    if (event.key !== "Tab") return;
    const focusable = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE));
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  const buttonClass =
    "inline-flex h-12 w-12 items-center justify-center rounded-full bg-white/15 text-white hover:bg-white/25 focus-visible:outline-white";

  return (
    <dialog
      ref={dialogRef}
      aria-modal="true"
      aria-label={t("listing.gallery.lightboxLabel", { title })}
      onClose={onClose}
      onKeyDown={onKeyDown}
      className="fixed inset-0 m-0 h-dvh max-h-none w-screen max-w-none bg-black p-0 text-white backdrop:bg-black/80"
    >
      {open && photo ? (
        <div className="flex h-full flex-col">
          <div className="flex items-center justify-between gap-4 p-3">
            <p className="text-base font-medium" aria-live="polite">
              {t("listing.gallery.counter", { current: index + 1, total })}
            </p>
            <button
              type="button"
              onClick={onClose}
              className={buttonClass}
              aria-label={t("listing.gallery.close")}
              // biome-ignore lint/a11y/noAutofocus: the lightbox is a modal dialog; focus belongs on its close button when it opens
              autoFocus
            >
              <CloseIcon className="h-6 w-6" />
            </button>
          </div>
          {/* biome-ignore lint/a11y/noStaticElementInteractions: a click beside the photo closes it, a mouse shortcut; Escape and the close button are the keyboard way */}
          {/* biome-ignore lint/a11y/useKeyWithClickEvents: as above, the dialog handles Escape */}
          <div
            className="relative flex min-h-0 flex-1 items-center justify-center px-2 pb-4"
            onClick={(event) => {
              if (event.target === event.currentTarget) onClose();
            }}
            {...swipe}
          >
            <img
              src={photo.url}
              srcSet={photo.srcSet}
              sizes="100vw"
              width={photo.width}
              height={photo.height}
              alt={photo.alt}
              className="max-h-full max-w-full object-contain"
            />
            {total > 1 ? (
              <>
                <button
                  type="button"
                  onClick={() => onStep(-1)}
                  className={`${buttonClass} absolute left-3 top-1/2 -translate-y-1/2`}
                  aria-label={t("listing.gallery.previous")}
                >
                  <Chevron direction="left" />
                </button>
                <button
                  type="button"
                  onClick={() => onStep(1)}
                  className={`${buttonClass} absolute right-3 top-1/2 -translate-y-1/2`}
                  aria-label={t("listing.gallery.next")}
                >
                  <Chevron direction="right" />
                </button>
              </>
            ) : null}
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
