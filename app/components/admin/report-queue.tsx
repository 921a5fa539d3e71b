import { Form, Link } from "react-router";
import { Button, buttonClasses } from "~/components/ui/button";
import { Select, type SelectOption } from "~/components/ui/select";
import { type Translator, useTranslation } from "~/i18n";
import { formatShortDate } from "~/lib/format";
import { HIDDEN_STATUS } from "~/schemas/listing-status";
import { isReportReason, type QueueQuery, REPORT_REASON_IDS, REPORT_STATUSES } from "~/schemas/moderation";
import type { QueueGroup, QueueReport } from "~/schemas/moderation-view";
import "virtual:catalogue/admin";
import "virtual:catalogue/report";

function FilterSelect({
  id,
  name,
  label,
  value,
  options,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  options: SelectOption[];
}) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block font-medium">
        {label}
      </label>
      <Select id={id} name={name} defaultValue={value} options={options} />
    </div>
  );
}

/** Status and reason filters: a GET form, so the filtered queue has its own URL and works without JavaScript. */
export function QueueFilters({ query }: { query: QueueQuery }) {
  const { t } = useTranslation();
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3" aria-label={t("admin.queue.filters")}>
      <FilterSelect
        id="filter-status"
        name="status"
        label={t("admin.queue.status")}
        value={query.status ?? ""}
        options={[
          { value: "", label: t("admin.queue.allStatuses") },
          ...REPORT_STATUSES.map((s) => ({ value: s, label: t(`admin.reportStatus.${s}`) })),
        ]}
      />
      <FilterSelect
        id="filter-reason"
        name="reason"
        label={t("admin.queue.reason")}
        value={query.reason ?? ""}
        options={[
          { value: "", label: t("admin.queue.allReasons") },
          ...REPORT_REASON_IDS.map((r) => ({ value: r, label: reasonLabel(t, r) })),
        ]}
      />
      <Button type="submit">{t("admin.queue.apply")}</Button>
      {query.status || query.reason ? (
        <Link to="/admin" className={buttonClasses("ghost")}>
          {t("admin.queue.clear")}
        </Link>
      ) : null}
    </Form>
  );
}

export function reasonLabel(t: Translator, reason: string): string {
  return isReportReason(reason) ? t(`report.reasons.${reason}.label`) : reason;
}

/** A link to one report's page: its reason, reporter, date and status. */
export function ReportLink({ report }: { report: QueueReport }) {
  const { t } = useTranslation();
  return (
    <Link
      to={`/admin/reports/${report.id}`}
      className="inline-flex min-h-11 items-center text-brand-800 underline underline-offset-2"
    >
      {t("admin.queue.reportLabel", {
        reason: reasonLabel(t, report.reason),
        name: report.reporterName,
        date: formatShortDate(report.createdAt),
        status: t(`admin.reportStatus.${report.status}`),
      })}
    </Link>
  );
}

/** One reported listing with its reports, each linking to its detail page. */
export function QueueGroupCard({ group }: { group: QueueGroup }) {
  const { t } = useTranslation();
  const { listing } = group;
  const status =
    listing.status === HIDDEN_STATUS && listing.hiddenBy
      ? t(`admin.hiddenBy.${listing.hiddenBy}`)
      : t(`admin.listingStatus.${listing.status}`);
  return (
    <li
      data-listing-id={listing.id}
      className={`rounded-xl border p-4 ${group.pending > 0 ? "border-amber-400" : "border-slate-200"}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-lg font-semibold">{listing.title}</h3>
        <p className="text-sm font-medium text-slate-800">
          {t("admin.queue.counts", { count: group.count, pending: group.pending })}
        </p>
      </div>
      <p className="text-sm text-slate-700">
        #{listing.id} · {t("admin.queue.listingStatus", { status })}
      </p>
      <ul className="mt-2 space-y-1">
        {group.reports.map((report) => (
          <li key={report.id}>
            <ReportLink report={report} />
          </li>
        ))}
      </ul>
    </li>
  );
}
