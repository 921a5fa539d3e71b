import type { Pagination } from "~/lib/pagination";
import type { ListingStatus } from "./listing-status";
import type { Reason } from "./message";
import type { ReportStatus } from "./moderation";

/**
 * What the moderation screens show (types only): the report queue, one
 * report with its listing and owner, and the audit log. The models build them
 * (app/models/report-review.server.ts, audit-log.server.ts); the routes and
 * components in app/components/admin/ show them.
 */

/** listings.hiddenBy as the database holds it (app/db/schema.ts); the status is a ListingStatus. */
export type HiddenBy = "moderator" | "reports" | "suspension";

/** What an audit_log row records (app/models/audit-log.server.ts writes them). */
export type AuditAction =
  | "report.dismiss"
  | "report.review"
  | "listing.hide"
  | "listing.restore"
  | "listing.auto-hide"
  | "listing.hold"
  | "listing.approve"
  | "listing.reject"
  | "user.suspend"
  | "user.reinstate"
  | "user.role";

export type QueueReport = { id: string; reason: string; status: ReportStatus; reporterName: string; createdAt: string };

export type QueueGroup = {
  listing: { id: number; slug: string; title: string; status: ListingStatus; hiddenBy: HiddenBy | null };
  /** Reports matching the filters. */
  count: number;
  pending: number;
  latestAt: string;
  reports: QueueReport[];
};

export type ReportQueue = { groups: QueueGroup[]; pagination: Pagination };

export type ReportDetail = {
  report: {
    id: string;
    reason: string;
    description: string | null;
    status: ReportStatus;
    reporterName: string;
    reporterEmail: string;
    reporterContact: string;
    createdAt: string;
    updatedAt: string;
  };
  listing: {
    id: number;
    slug: string;
    title: string;
    status: ListingStatus;
    hiddenBy: HiddenBy | null;
    hiddenReason: Reason | null;
    expiresAt: string;
  };
  owner: { id: string; name: string; email: string; role: string; status: string } | null;
  /** The listing's other reports, newest first. */
  otherReports: QueueReport[];
};

export type AuditEntry = {
  id: string;
  actorEmail: string | null;
  action: AuditAction;
  targetType: string;
  targetId: string;
  /** The listing's title or the user's email, while they exist. */
  targetLabel: string | null;
  reason: Reason | null;
  createdAt: string;
};

export type AuditPage = { entries: AuditEntry[]; pagination: Pagination };
