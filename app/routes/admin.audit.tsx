import { moderatorsOnly } from "~/auth/guard.server";
import { AdminPagination } from "~/components/admin/admin-pagination";
import { AuditTable } from "~/components/admin/audit-table";
import { useTranslation } from "~/i18n";
import { listAuditLog } from "~/models/audit-log.server";
import { parsePage } from "~/schemas/moderation";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/admin.audit";
import "virtual:catalogue/admin";

const ENTRIES_PER_PAGE = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(requestContext);
  await moderatorsOnly.user({ request, context });
  const page = parsePage(new URL(request.url).searchParams);
  return listAuditLog(db, { page, limit: ENTRIES_PER_PAGE });
}

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="audit-heading" className="rounded-xl border border-slate-200 p-5">
      <h2 id="audit-heading" className="text-xl font-semibold">
        {t("admin.audit.heading")}
      </h2>
      <AuditTable entries={loaderData.entries} />
      <AdminPagination pagination={loaderData.pagination} />
    </section>
  );
}
