import { type ComponentType, type MouseEvent, useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { FlagIcon } from "~/components/ui/icons";
import { useLocalePath, useTranslation } from "~/i18n";
import type { ReportDialogProps } from "./report-dialog";
import "virtual:catalogue/listing";

/**
 * 'Report This Listing': a link to the report page, which is what it stays
 * without JavaScript. With it, a plain click loads the report route's module
 * on demand (fetcher.load: its clientLoader answers with the dialog) and
 * opens the dialog; if no dialog comes back, the link is followed after all.
 */
export function ReportLink({ listing }: { listing: ReportDialogProps["listing"] }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<{ ReportDialog?: ComponentType<ReportDialogProps> }>();
  const [open, setOpen] = useState(false);
  // The router adds the page's language to what it loads; a plain link and a page load need it written out.
  const route = `/listing/${listing.slug}/report`;
  const href = useLocalePath()(route);
  const Dialog = fetcher.data?.ReportDialog;

  useEffect(() => {
    if (open && fetcher.state === "idle" && fetcher.data && !Dialog) window.location.assign(href);
  }, [open, fetcher.state, fetcher.data, Dialog, href]);

  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // Offline, the dialog cannot come: the link is followed, and the worker says a connection is needed (ADR 088).
    if (!navigator.onLine || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    event.preventDefault();
    setOpen(true);
    if (!Dialog) fetcher.load(route);
  };

  return (
    <>
      <a href={href} onClick={onClick} className={buttonClasses("secondary", "md", "w-full sm:w-auto")}>
        <FlagIcon className="h-5 w-5" />
        {t("listing.report")}
      </a>
      {Dialog && open ? <Dialog listing={listing} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
