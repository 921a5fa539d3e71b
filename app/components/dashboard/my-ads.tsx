import { Link } from "react-router";
import { TableHead } from "~/components/ui/table-head";
import { useTranslation } from "~/i18n";
import { formatShortDate } from "~/lib/format";
import { HIDDEN_STATUS, PENDING_STATUS } from "~/schemas/listing-status";
import { reasonText } from "~/schemas/message";
import type { MyAd, OwnerListingStatus } from "~/schemas/my-listing-view";
import { MyAdActions } from "./my-ads-actions";
import "virtual:catalogue/dashboard";
import "virtual:catalogue/review";

const badgeStyles: Record<OwnerListingStatus, string> = {
  active: "border-green-300 bg-green-50 text-green-900",
  expired: "border-red-300 bg-red-50 text-red-900",
  pending: "border-amber-300 bg-amber-50 text-amber-950",
  hidden: "border-slate-300 bg-slate-100 text-slate-800",
  let: "border-slate-300 bg-slate-100 text-slate-800",
};

const dotStyles: Record<OwnerListingStatus, string> = {
  active: "bg-green-600",
  expired: "bg-red-600",
  pending: "bg-amber-500",
  hidden: "bg-slate-500",
  let: "bg-slate-500",
};

/** The status in words; the colour only repeats it. */
export function StatusBadge({ status }: { status: OwnerListingStatus }) {
  const { t } = useTranslation();
  const label = {
    active: t("dashboard.myAds.status.active"),
    expired: t("dashboard.myAds.status.expired"),
    pending: t("dashboard.myAds.status.pending"),
    hidden: t("dashboard.myAds.status.hidden"),
    let: t("dashboard.myAds.status.let"),
  }[status];
  return (
    <span
      data-status={status}
      className={`inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-sm font-semibold ${badgeStyles[status]}`}
    >
      <span aria-hidden="true" className={`h-2 w-2 rounded-full ${dotStyles[status]}`} />
      {label}
    </span>
  );
}

/** What the moderator wrote when hiding the ad (ADR 008), or why reports hid it; why a pending ad is held (ADR 078). */
function HiddenReason({ ad }: { ad: MyAd }) {
  const { t } = useTranslation();
  if (ad.status === PENDING_STATUS && ad.heldReasons.length > 0)
    return (
      <div data-testid="held-reasons" className="mt-1 max-w-xs text-sm text-slate-700">
        <p>{t("review.owner.heldIntro")}</p>
        <ul className="list-disc pl-5">
          {ad.heldReasons.map((key) => (
            <li key={key}>{t(key)}</li>
          ))}
        </ul>
      </div>
    );
  if (ad.status !== HIDDEN_STATUS || !ad.hiddenReason) return null;
  return (
    <p className="mt-1 max-w-xs text-sm text-slate-700">
      {t("dashboard.myAds.hiddenReason", { reason: reasonText(t, ad.hiddenReason) })}
    </p>
  );
}

const COLUMNS = ["title", "status", "posted", "daysLeft", "views", "actions"] as const;

/** A table on large screens, cards on small ones. */
export function MyAdsList({ ads }: { ads: MyAd[] }) {
  const { t } = useTranslation();
  const titleLink = (ad: MyAd) => (
    <Link to={`/listing/${ad.slug}`} className="font-semibold text-brand-800 underline-offset-2 hover:underline">
      {ad.title}
    </Link>
  );
  return (
    <>
      <table className="hidden w-full text-left lg:table">
        <caption className="sr-only">{t("dashboard.myAds.tableCaption")}</caption>
        <TableHead
          className="border-b border-slate-300 text-sm text-slate-700"
          columns={COLUMNS.map((column) => t(`dashboard.myAds.columns.${column}`))}
        />
        <tbody>
          {ads.map((ad) => (
            <tr key={ad.id} data-ad-id={ad.id} className="border-b border-slate-200 align-middle">
              <td className="py-3 pr-3">{titleLink(ad)}</td>
              <td className="px-3 py-3">
                <StatusBadge status={ad.status} />
                <HiddenReason ad={ad} />
              </td>
              <td className="whitespace-nowrap px-3 py-3">{formatShortDate(ad.createdAt)}</td>
              <td className="whitespace-nowrap px-3 py-3">{t("dashboard.myAds.daysLeft", { count: ad.daysLeft })}</td>
              <td className="whitespace-nowrap px-3 py-3">{t("dashboard.myAds.views", { count: ad.views })}</td>
              <td className="py-3 pl-3">
                <MyAdActions ad={ad} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="space-y-3 lg:hidden">
        {ads.map((ad) => (
          <li key={ad.id} data-ad-id={ad.id} className="rounded-xl border border-slate-200 p-4">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <h3 className="text-lg">{titleLink(ad)}</h3>
              <StatusBadge status={ad.status} />
            </div>
            <HiddenReason ad={ad} />
            <p className="mt-2 text-sm text-slate-700">
              {t("dashboard.myAds.posted", { date: formatShortDate(ad.createdAt) })} ·{" "}
              {t("dashboard.myAds.daysLeft", { count: ad.daysLeft })} ·{" "}
              {t("dashboard.myAds.views", { count: ad.views })}
            </p>
            <div className="mt-3">
              <MyAdActions ad={ad} />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
