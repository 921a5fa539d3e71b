import { data, Link, redirect, useSearchParams } from "react-router";
import { moderatorsOnly } from "~/auth/guard.server";
import { ModerationForm } from "~/components/admin/moderation-form";
import { ReportLink, reasonLabel } from "~/components/admin/report-queue";
import { Banner } from "~/components/ui/banner";
import { type MessageKey, useTranslation } from "~/i18n";
import { formatShortDate } from "~/lib/format";
import { routeMeta } from "~/lib/route-meta";
import { hideListing, restoreListing } from "~/models/listing-moderation.server";
import type { ModerationResult } from "~/models/moderation-action.server";
import { closeReport, getReportDetail } from "~/models/report-review.server";
import { reinstateUser, suspendUser } from "~/models/user-moderation.server";
import { DELETED_STATUS, HIDDEN_STATUS, PUBLIC_PAGE_STATUSES, statusIn } from "~/schemas/listing-status";
import { reasonText } from "~/schemas/message";
import {
  MODERATION_FAILURES,
  MODERATION_INTENTS,
  type ModerationIntent,
  parseModerationForm,
} from "~/schemas/moderation";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/admin.reports.$id";
import "virtual:catalogue/admin";
import { Section } from "~/components/ui/section";
import { readForm } from "~/security/read-form.server";

export const meta: Route.MetaFunction = routeMeta((site) => [
  { title: site.t("admin.report.metaTitle", site) },
  { name: "robots", content: "noindex" },
]);

async function loadReport(db: Parameters<typeof getReportDetail>[0], id: string) {
  const detail = await getReportDetail(db, id);
  if (!detail) throw data(null, { status: 404 });
  return detail;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { db } = context.get(requestContext);
  await moderatorsOnly.user({ request, context });
  return loadReport(db, params.id);
}

type ActionFailure = { intent: ModerationIntent | null; error: MessageKey; reason: string };

export async function action({ request, context, params }: Route.ActionArgs) {
  const { db } = context.get(requestContext);
  const write = await moderatorsOnly.write({ request, context });
  const form = await readForm(request);
  const parsed = parseModerationForm(form);
  if (!write.ok) {
    return data(
      { intent: parsed.intent, error: "admin.actions.errors.forbidden", reason: "" } satisfies ActionFailure,
      { status: 403 },
    );
  }
  if (!parsed.ok) {
    return data({ intent: parsed.intent, error: parsed.error, reason: parsed.reason } satisfies ActionFailure, {
      status: 422,
    });
  }
  const detail = await loadReport(db, params.id);
  const actor = { id: write.user.id, email: write.user.email };
  const { intent, reason } = parsed;
  const ownerId = detail.owner?.id ?? "";
  let result: ModerationResult;
  switch (intent) {
    case "dismiss":
      result = await closeReport(db, actor, detail.report.id, "dismissed", reason);
      break;
    case "review":
      result = await closeReport(db, actor, detail.report.id, "reviewed", reason);
      break;
    case "hide":
      result = await hideListing(db, actor, detail.listing.id, reason ?? "");
      break;
    case "restore":
      result = await restoreListing(db, actor, detail.listing.id, reason);
      break;
    case "suspend":
      result = await suspendUser(db, actor, ownerId, reason ?? "");
      break;
    case "reinstate":
      result = await reinstateUser(db, actor, ownerId, reason);
      break;
  }
  if (result.ok) return redirect(`/admin/reports/${encodeURIComponent(detail.report.id)}?done=${intent}`);
  const failure = MODERATION_FAILURES[result.code];
  return data({ intent, error: failure.key, reason: reason ?? "" } satisfies ActionFailure, { status: failure.status });
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[12rem_1fr]">
      <dt className="font-semibold text-slate-700">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

export default function AdminReport({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { report, listing, owner, otherReports } = loaderData;
  const [searchParams] = useSearchParams();
  const done = MODERATION_INTENTS.find((i) => i === searchParams.get("done"));
  const failure = actionData as ActionFailure | undefined;
  const formProps = (intent: ModerationIntent) =>
    failure?.intent === intent ? { error: failure.error, reason: failure.reason } : {};
  const listingStatus =
    listing.status === HIDDEN_STATUS && listing.hiddenBy
      ? t(`admin.hiddenBy.${listing.hiddenBy}`)
      : t(`admin.listingStatus.${listing.status}`);

  return (
    <article aria-labelledby="report-heading" className="space-y-6">
      <Link
        to="/admin"
        className="inline-flex min-h-11 items-center font-medium text-brand-800 underline underline-offset-2"
      >
        {t("admin.report.back")}
      </Link>
      <h2 id="report-heading" className="text-2xl font-semibold">
        {t("admin.report.heading", { reason: reasonLabel(t, report.reason) })}
      </h2>
      <div aria-live="polite" className="empty:hidden">
        {done && !failure ? <Banner variant="success" title={t(`admin.actions.done.${done}`)} /> : null}
        {failure && failure.intent === null ? <Banner variant="error" title={t(failure.error)} /> : null}
        {failure &&
        failure.intent !== null &&
        failure.error !== "admin.actions.errors.reasonRequired" &&
        failure.error !== "admin.actions.errors.reasonTooLong" ? (
          <Banner variant="error" title={t(failure.error)} />
        ) : null}
      </div>

      <Section id="report-details" look="card" level={3} heading={t("admin.report.details")}>
        <dl className="mt-3 space-y-2">
          <Fact label={t("admin.report.status")}>{t(`admin.reportStatus.${report.status}`)}</Fact>
          <Fact label={t("admin.report.reason")}>{reasonLabel(t, report.reason)}</Fact>
          <Fact label={t("admin.report.description")}>
            {report.description ? (
              <span className="whitespace-pre-line">{report.description}</span>
            ) : (
              t("admin.report.noDescription")
            )}
          </Fact>
          <Fact label={t("admin.report.reporter")}>{report.reporterName}</Fact>
          <Fact label={t("admin.report.email")}>{report.reporterEmail}</Fact>
          <Fact label={t("admin.report.contact")}>{report.reporterContact}</Fact>
          <Fact label={t("admin.report.received")}>{formatShortDate(report.createdAt)}</Fact>
        </dl>
      </Section>

      <Section id="report-listing" look="card" level={3} heading={t("admin.report.listing")}>
        <dl className="mt-3 space-y-2">
          <Fact label={t("admin.report.listing")}>
            #{listing.id} {listing.title}
          </Fact>
          <Fact label={t("admin.report.listingStatus")}>{listingStatus}</Fact>
          {listing.hiddenReason ? (
            <Fact label={t("admin.report.hiddenReason")}>{reasonText(t, listing.hiddenReason)}</Fact>
          ) : null}
        </dl>
        {statusIn(PUBLIC_PAGE_STATUSES, listing.status) ? (
          <a
            href={`/listing/${listing.slug}`}
            className="mt-3 inline-flex min-h-11 items-center font-medium text-brand-800 underline underline-offset-2"
          >
            {t("admin.report.viewListing")}
          </a>
        ) : null}
      </Section>

      <Section id="report-owner" look="card" level={3} heading={t("admin.report.owner")}>
        {owner ? (
          <dl className="mt-3 space-y-2">
            <Fact label={t("admin.report.owner")}>
              {owner.name} ({owner.email})
            </Fact>
            <Fact label={t("admin.report.ownerRole")}>
              {owner.role === "moderator" ? t("admin.report.moderatorRole") : t("admin.report.ownerRoleName")}
            </Fact>
            <Fact label={t("admin.report.ownerStatus")}>
              {t(`admin.userStatus.${owner.status === "suspended" ? "suspended" : "active"}`)}
            </Fact>
          </dl>
        ) : (
          <p className="mt-3">{t("admin.report.noOwner")}</p>
        )}
      </Section>

      <Section id="report-others" look="card" level={3} heading={t("admin.report.otherReports")}>
        {otherReports.length === 0 ? (
          <p className="mt-3">{t("admin.report.noOtherReports")}</p>
        ) : (
          <ul className="mt-3 space-y-1">
            {otherReports.map((other) => (
              <li key={other.id}>
                <ReportLink report={other} />
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="actions-heading" look="card" level={3} heading={t("admin.actions.heading")}>
        <div className="mt-4 grid gap-6 md:grid-cols-3">
          <div className="space-y-4">
            <h4 className="font-semibold">{t("admin.actions.reportHeading")}</h4>
            {report.status === "pending" ? (
              <>
                <ModerationForm intent="review" label={t("admin.actions.review")} {...formProps("review")} />
                <ModerationForm intent="dismiss" label={t("admin.actions.dismiss")} {...formProps("dismiss")} />
              </>
            ) : (
              <p>{t("admin.actions.reportClosed")}</p>
            )}
          </div>
          <div className="space-y-4">
            <h4 className="font-semibold">{t("admin.actions.listingHeading")}</h4>
            {listing.status === HIDDEN_STATUS ? (
              <ModerationForm intent="restore" label={t("admin.actions.restore")} {...formProps("restore")} />
            ) : null}
            {listing.status !== DELETED_STATUS &&
            (listing.status !== HIDDEN_STATUS || listing.hiddenBy !== "moderator") ? (
              <ModerationForm intent="hide" label={t("admin.actions.hide")} variant="danger" {...formProps("hide")} />
            ) : null}
          </div>
          {owner ? (
            <div className="space-y-4">
              <h4 className="font-semibold">{t("admin.actions.ownerHeading")}</h4>
              {owner.role === "moderator" ? (
                <p>{t("admin.actions.ownerIsModerator")}</p>
              ) : owner.status === "suspended" ? (
                <ModerationForm intent="reinstate" label={t("admin.actions.reinstate")} {...formProps("reinstate")} />
              ) : (
                <ModerationForm
                  intent="suspend"
                  label={t("admin.actions.suspend")}
                  variant="danger"
                  {...formProps("suspend")}
                />
              )}
            </div>
          ) : null}
        </div>
      </Section>
    </article>
  );
}
