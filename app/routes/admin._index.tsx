import { Link } from "react-router";
import { moderatorsOnly } from "~/auth/guard.server";
import { AdminPagination } from "~/components/admin/admin-pagination";
import { AuditTable } from "~/components/admin/audit-table";
import { QueueFilters, QueueGroupCard } from "~/components/admin/report-queue";
import { useTranslation } from "~/i18n";
import { listAuditLog } from "~/models/audit-log.server";
import { listReportQueue } from "~/models/report-review.server";
import { parseQueueQuery } from "~/schemas/moderation";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/admin._index";
import "virtual:catalogue/admin";
import { Section } from "~/components/ui/section";

const GROUPS_PER_PAGE = 20;
const RECENT_AUDIT_ENTRIES = 10;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(requestContext);
  await moderatorsOnly.user({ request, context });
  const query = parseQueueQuery(new URL(request.url).searchParams);
  const [queue, audit] = await Promise.all([
    listReportQueue(db, query, { page: query.page, limit: GROUPS_PER_PAGE }),
    listAuditLog(db, { page: 1, limit: RECENT_AUDIT_ENTRIES }),
  ]);
  return { query, queue, recent: audit.entries };
}

/** The reports queue, grouped per listing (pending first), and the latest moderation actions. */
export default function AdminReports({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { query, queue, recent } = loaderData;
  return (
    <>
      <Section id="queue-heading" look="card" heading={t("admin.queue.heading")}>
        <div className="mt-4">
          <QueueFilters query={query} />
        </div>
        <p className="mt-4 text-slate-700">{t("admin.queue.summary", { total: queue.pagination.total })}</p>
        {queue.groups.length === 0 ? (
          <p className="mt-4 font-medium">{t("admin.queue.empty")}</p>
        ) : (
          <ul className="mt-4 space-y-3">
            {queue.groups.map((group) => (
              <QueueGroupCard key={group.listing.id} group={group} />
            ))}
          </ul>
        )}
        <AdminPagination pagination={queue.pagination} />
      </Section>
      <Section id="recent-heading" look="card" className="mt-6" heading={t("admin.audit.recent")}>
        <AuditTable entries={recent} />
        <Link
          to="/admin/audit"
          className="mt-3 inline-flex min-h-11 items-center font-medium text-brand-800 underline underline-offset-2"
        >
          {t("admin.audit.all")}
        </Link>
      </Section>
    </>
  );
}
