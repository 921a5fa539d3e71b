import { moderatorsOnly } from "~/auth/guard.server";
import { AdminPagination } from "~/components/admin/admin-pagination";
import { AuditTable } from "~/components/admin/audit-table";
import { useTranslation } from "~/i18n";
import { listAuditLog } from "~/models/audit-log.server";
import { parsePage } from "~/schemas/moderation";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/admin.audit";
import "virtual:catalogue/admin";
import { Section } from "~/components/ui/section";

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
    <Section id="audit-heading" look="card" heading={t("admin.audit.heading")}>
      <AuditTable entries={loaderData.entries} />
      <AdminPagination pagination={loaderData.pagination} />
    </Section>
  );
}
