import { TableHead } from "~/components/ui/table-head";
import { type MessageKey, type Translator, useTranslation } from "~/i18n";
import { reasonText } from "~/schemas/message";
import type { AuditAction, AuditEntry } from "~/schemas/moderation-view";
import "virtual:catalogue/admin";

const dateTime = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "Asia/Colombo",
});

const ACTION_KEYS: Record<AuditAction, MessageKey> = {
  "report.dismiss": "admin.audit.actions.report-dismiss",
  "report.review": "admin.audit.actions.report-review",
  "listing.hide": "admin.audit.actions.listing-hide",
  "listing.restore": "admin.audit.actions.listing-restore",
  "listing.auto-hide": "admin.audit.actions.listing-auto-hide",
  "listing.hold": "admin.audit.actions.listing-hold",
  "listing.approve": "admin.audit.actions.listing-approve",
  "listing.reject": "admin.audit.actions.listing-reject",
  "user.suspend": "admin.audit.actions.user-suspend",
  "user.reinstate": "admin.audit.actions.user-reinstate",
  "user.role": "admin.audit.actions.user-role",
};

const COLUMNS = ["when", "who", "what", "target", "why"] as const;

function targetText(t: Translator, entry: AuditEntry): string {
  if (entry.targetType === "listing") {
    const id = t("admin.audit.targetListing", { id: entry.targetId });
    return entry.targetLabel ? `${id}: ${entry.targetLabel}` : id;
  }
  if (entry.targetType === "user") return t("admin.audit.targetUser", { label: entry.targetLabel ?? entry.targetId });
  return t("admin.audit.targetReport", { id: entry.targetId });
}

/** Who did what to which listing or account, when and why (newest first). */
export function AuditTable({ entries }: { entries: AuditEntry[] }) {
  const { t } = useTranslation();
  if (entries.length === 0) return <p className="mt-3 text-slate-700">{t("admin.audit.empty")}</p>;
  return (
    <div className="mt-3 overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{t("admin.audit.caption")}</caption>
        <TableHead
          className="border-b border-slate-300 text-slate-700"
          columns={COLUMNS.map((column) => t(`admin.audit.${column}`))}
        />
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id} data-action={entry.action} className="border-b border-slate-200 align-top">
              <td className="whitespace-nowrap py-2 pr-3">
                <time dateTime={entry.createdAt}>{dateTime.format(new Date(entry.createdAt))}</time>
              </td>
              <td className="px-3 py-2 [overflow-wrap:anywhere]">{entry.actorEmail ?? t("admin.audit.system")}</td>
              <td className="px-3 py-2">{t(ACTION_KEYS[entry.action])}</td>
              <td className="px-3 py-2 [overflow-wrap:anywhere]">{targetText(t, entry)}</td>
              <td className="py-2 pl-3 break-words">{entry.reason ? reasonText(t, entry.reason) : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
