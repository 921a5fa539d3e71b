import { type KeyboardEvent, useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { CloseIcon } from "~/components/ui/icons";
import { useTranslation } from "~/i18n";
import { type ReportActionResult, ReportForm, ReportSuccess } from "./report-form";
import "virtual:catalogue/report";

export type ReportDialogProps = {
  listing: { adNumber: string; slug: string; title: string };
  /** Called once the dialog has closed; the opener unmounts it (a fresh form next time). */
  onClose: () => void;
};

/** The success message stays this long, then the dialog closes. */
export const SUCCESS_CLOSE_MS = 2000;

const FOCUSABLE = "a[href], button:not([disabled]), input:not([type='hidden']):not([tabindex='-1']), select, textarea";

/**
 * The report form in a native modal <dialog> (loaded on demand by ReportLink):
 * the page behind is inert, Tab wraps inside, Escape closes, except while the
 * report is being sent. It posts to /listing/{slug}/report through a fetcher.
 */
export function ReportDialog({ listing, onClose }: ReportDialogProps) {
  const { t } = useTranslation();
  const fetcher = useFetcher<ReportActionResult>();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const submitting = fetcher.state !== "idle";
  const sent = fetcher.state === "idle" && fetcher.data?.status === "sent";
  const submittingRef = useRef(submitting);
  submittingRef.current = submitting;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>("input[name='reporterName']")?.focus();
  }, []);

  useEffect(() => {
    if (!sent) return;
    // The form (and the focused button) is gone: keep focus inside the dialog.
    dialogRef.current?.querySelector("button")?.focus();
    const timer = setTimeout(() => dialogRef.current?.close(), SUCCESS_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [sent]);

  const close = () => {
    if (!submittingRef.current) dialogRef.current?.close();
  };

  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key === "Escape" && submittingRef.current) {
      event.preventDefault();
      return;
    }
    if (event.key !== "Tab") return;
    // Tab wraps around inside the dialog.
    const focusable = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE));
    const [from, to] = event.shiftKey ? [focusable[0], focusable.at(-1)] : [focusable.at(-1), focusable[0]];
    if (from && document.activeElement === from) {
      event.preventDefault();
      to?.focus();
    }
  }

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby="report-dialog-title"
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        if (submittingRef.current) event.preventDefault();
      }}
      onClose={() => {
        // Chrome lets a repeated Escape close a dialog whatever cancel says: open it again.
        if (submittingRef.current) dialogRef.current?.showModal();
        else onClose();
      }}
      className="m-auto max-h-[90dvh] w-[calc(100%-2rem)] max-w-lg overflow-y-auto rounded-xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-black/60"
    >
      <div className="sticky top-0 z-10 flex items-start justify-between gap-4 border-b border-slate-200 bg-white px-5 py-3">
        <h2 id="report-dialog-title" className="min-w-0 self-center text-xl font-bold">
          {t("report.heading")}
        </h2>
        <button
          type="button"
          onClick={close}
          disabled={submitting}
          aria-label={t("report.form.close")}
          className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-slate-700 hover:bg-slate-100 disabled:opacity-50"
        >
          <CloseIcon className="h-6 w-6" />
        </button>
      </div>
      <div className="px-5 py-4">
        <p className="mb-4 text-sm break-words text-slate-700">
          {t("report.intro", { title: listing.title, adNumber: listing.adNumber })}
        </p>
        {sent ? (
          <ReportSuccess />
        ) : (
          <ReportForm
            FormComponent={fetcher.Form}
            action={`/listing/${listing.slug}/report`}
            listingId={listing.adNumber}
            result={fetcher.data}
            submitting={submitting}
            idPrefix="report-dialog"
            interactive
            actions={
              <Button variant="secondary" onClick={close} disabled={submitting}>
                {t("report.form.cancel")}
              </Button>
            }
          />
        )}
      </div>
    </dialog>
  );
}
