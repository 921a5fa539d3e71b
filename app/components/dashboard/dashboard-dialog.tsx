import { type KeyboardEvent, type ReactNode, useEffect, useRef } from "react";
import { Link, useNavigate } from "react-router";
import { useEnhanced } from "~/components/forms/use-enhanced";
import { CloseIcon } from "~/components/ui/icons";
import { useTranslation } from "~/i18n";
import "virtual:catalogue/dashboard";

/** Where closing a dialog goes: the My Ads overview underneath it. */
export const DASHBOARD_PATH = "/dashboard";

const TABBABLE =
  "a[href], button:not([disabled]), input:not([disabled]):not([type='hidden']), select:not([disabled]), textarea:not([disabled]), [tabindex='0']";

/** Keeps Tab and Shift+Tab inside the dialog (the page behind is inert, the browser's toolbar is not). */
function wrapTab(event: KeyboardEvent<HTMLDialogElement>) {
  if (event.key !== "Tab") return;
  const tabbable = [...event.currentTarget.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (el) => el.offsetParent !== null,
  );
  const edge = event.shiftKey ? tabbable[0] : tabbable.at(-1);
  if (!edge || document.activeElement !== edge) return;
  event.preventDefault();
  (event.shiftKey ? tabbable.at(-1) : tabbable[0])?.focus();
}

type DashboardDialogProps = { labelledBy: string; title: ReactNode; children: ReactNode };

/**
 * A dialog over the dashboard that is also a page of its own (ADR 009: post
 * and edit at /dashboard/listings/...). Without JavaScript it is a panel over
 * the page with a Close link. With it, a modal <dialog>: focus moves in and
 * stays in, Escape and Close go back to /dashboard, and focus returns to the
 * control that opened it.
 */
export function DashboardDialog({ labelledBy, title, children }: DashboardDialogProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const enhanced = useEnhanced();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const leaving = useRef(false);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const opener =
      document.activeElement instanceof HTMLElement && document.activeElement !== document.body
        ? document.activeElement
        : null;
    // Rendered open for readers without JavaScript; reopened as a modal.
    if (dialog.open) dialog.close();
    dialog.showModal();
    headingRef.current?.focus();
    return () => {
      leaving.current = true;
      if (dialog.open) dialog.close();
      // The opener may be gone (Post New Ad disappears at the limit): then the My Ads heading.
      const target = opener?.isConnected ? opener : document.getElementById("my-ads-heading");
      target?.focus();
    };
  }, []);

  const close = () => {
    if (leaving.current) return;
    leaving.current = true;
    void navigate(DASHBOARD_PATH, { preventScrollReset: true });
  };

  return (
    <>
      {enhanced ? null : <div aria-hidden="true" className="fixed inset-0 z-40 bg-slate-900/60" />}
      <dialog
        ref={dialogRef}
        open
        aria-labelledby={labelledBy}
        onCancel={(event) => {
          // A file input fires its own "cancel" (chooser closed) which bubbles here: not ours.
          if (event.target !== event.currentTarget) return;
          event.preventDefault();
          close();
        }}
        onClose={() => {
          // Chrome may close on Escape without a cancelable "cancel". A close
          // event while open again is the one from reopening it as a modal.
          if (!dialogRef.current?.open) close();
        }}
        onKeyDown={wrapTab}
        className="fixed inset-x-0 top-4 z-50 mx-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-3xl overflow-y-auto overscroll-contain rounded-xl bg-white p-0 text-slate-900 shadow-2xl backdrop:bg-slate-900/60"
      >
        <div className="sticky top-0 z-10 flex items-center justify-between gap-4 border-b border-slate-200 bg-white px-5 py-3">
          <h2 id={labelledBy} ref={headingRef} tabIndex={-1} className="text-2xl font-semibold">
            {title}
          </h2>
          <Link
            to={DASHBOARD_PATH}
            preventScrollReset
            className="inline-flex min-h-11 min-w-11 items-center justify-center gap-1 rounded-lg px-3 font-semibold text-slate-800 hover:bg-slate-100"
          >
            <CloseIcon className="h-5 w-5" />
            {t("dashboard.dialog.close")}
          </Link>
        </div>
        <div className="px-5 py-4">{children}</div>
      </dialog>
    </>
  );
}
