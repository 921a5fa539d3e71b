import { createContext, data, Form, Link, redirect, useNavigation } from "react-router";
import { getSessionUser } from "~/auth/auth.server";
import { ReportDialog } from "~/components/listing/report-dialog";
import { type ReportActionResult, ReportForm, ReportSuccess } from "~/components/listing/report-form";
import { ButtonLink } from "~/components/ui/button";
import { type MessageKey, useTranslation } from "~/i18n";
import { routeMeta } from "~/lib/route-meta";
import { networkOrigin } from "~/limits/client-ip.server";
import { retryAfterHeaders } from "~/limits/rate-limit.server";
import { refusalOf } from "~/limits/refusal.server";
import { emailModeratorsAboutReport, emailOwnerAboutAutoHide } from "~/mail/report-mails.server";
import { findListingBySlug } from "~/models/listing.server";
import { createReport, type Reporter } from "~/models/report.server";
import { hashViewerId } from "~/models/view-tracking.server";
import { isHoneypotFilled } from "~/schemas/honeypot";
import { parseReportForm, type ReportValues } from "~/schemas/report";
import { isSameOrigin } from "~/security/origin.server";
import { visitorIdFrom } from "~/security/visitor-id.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/listing.report";
import "virtual:catalogue/report";
import { readForm } from "~/security/read-form.server";

// The report form as a page of its own: what 'Report This Listing' opens
// without JavaScript, and the action the listing page's dialog posts to.
export const meta: Route.MetaFunction = routeMeta(({ siteName, t: translate }, { loaderData }) => {
  const robots = { name: "robots", content: "noindex" };
  if (!loaderData?.listing) return [robots];
  const { listing } = loaderData;
  return [
    { title: translate("report.meta.title", { title: listing.title, siteName }) },
    { name: "description", content: translate("report.meta.description", { siteName }) },
    robots,
  ];
});

/** Set by the action once a report is stored, for the loader that runs after it. */
const reportStored = createContext(false);

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = context.get(requestContext);
  const found = await findListingBySlug(db, params.slug);
  // A report that just hid the listing still gets its success page, as 200.
  if (!found) return data({ listing: null }, { status: context.get(reportStored) ? 200 : 404 });
  if (found.slug !== params.slug) throw redirect(`/listing/${found.slug}/report`, 301);
  return { listing: { adNumber: found.adNumber, slug: found.slug, title: found.title } };
}

/**
 * In the browser, this route also hands the listing page its report dialog:
 * ReportLink calls fetcher.load() on this URL, so React Router loads this
 * module on demand (the dialog is not part of the listing page's first load,
 * and no import() helper is added to it either). Without JavaScript, or when
 * the page is opened directly, the server loader alone runs.
 */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  // A failed request must not replace the listing page with an error page.
  const loaded = await serverLoader().catch(() => ({ listing: null }));
  return { ...loaded, ReportDialog };
}

function refuse(message: MessageKey, status: number, values?: ReportValues, headers?: HeadersInit) {
  return data({ status: "refused", message, values } satisfies ReportActionResult, { status, headers });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db, env, log, limiter, clientIp, secrets } = context.get(requestContext);
  if (!isSameOrigin(request, env.siteUrl)) return refuse("report.errors.origin", 403);
  const form = await readForm(request);
  if (isHoneypotFilled(form)) {
    // Looks like a bot: answer as if it worked so it learns nothing.
    log.info("report form honeypot filled; report dropped");
    return { status: "sent", listingPath: `/listing/${params.slug}` } satisfies ReportActionResult;
  }
  const parsed = parseReportForm(form);
  if (!parsed.ok) {
    return data({ status: "invalid", errors: parsed.errors, values: parsed.values } satisfies ReportActionResult, {
      status: 400,
    });
  }
  const decision = await limiter.consume("reportIp", { ip: clientIp });
  if (!decision.ok) {
    const refused = refusalOf(decision, "report.errors.tooMany");
    return refuse(refused.message, refused.status, parsed.values, retryAfterHeaders(decision));
  }

  // Who is reporting, as far as auto-hide is concerned (ADR 017); the report is stored either way.
  const visitorId = visitorIdFrom(request.headers.get("cookie"), secrets.sessionSecret);
  const reporter: Reporter = {
    // Another address of the same network (IPv4 /24, IPv6 /64) is no new reporter.
    originGroup: networkOrigin(clientIp),
    visitorKey: visitorId ? hashViewerId(secrets.visitorSalt, "visitor", visitorId) : null,
    userId: (await getSessionUser(request, context))?.id ?? null,
  };
  let created: Awaited<ReturnType<typeof createReport>>;
  try {
    created = await createReport(db, parsed.data, { autoHideAt: env.REPORT_AUTO_HIDE, reporter });
  } catch (error) {
    log.error({ err: error }, "could not store report");
    return refuse("report.errors.failed", 503, parsed.values);
  }
  if (!created.ok) {
    if (created.code === "report.origin_cap") {
      const retryAfterSeconds = created.values?.retryAfterSeconds ?? 3600;
      return refuse("report.errors.originCap", 429, parsed.values, retryAfterHeaders({ retryAfterSeconds }));
    }
    return refuse("report.errors.listingNotFound", 404, parsed.values);
  }
  context.set(reportStored, true);
  log.info(
    {
      reportId: created.report.id,
      listingId: created.listing.id,
      autoHidden: created.autoHidden,
      weight: created.weight,
    },
    "report stored",
  );
  // Stored is what counts: moderators see it in /admin even if queueing an email fails.
  const site = { supportEmail: env.SUPPORT_EMAIL, siteName: env.SITE_NAME, siteUrl: env.siteUrl };
  try {
    // One email per listing an hour; the "report-digest" job sends the rest together.
    // Moderators read English until they can choose a language (ADR 036).
    if (created.notifyModerators) await emailModeratorsAboutReport(db, site, created);
  } catch (error) {
    log.error({ err: error, reportId: created.report.id }, "could not queue the report email");
  }
  try {
    // The owner's language (Settings) replaces this once owners can choose one (ADR 036).
    if (created.autoHidden) await emailOwnerAboutAutoHide(db, site, created.listing);
  } catch (error) {
    log.error({ err: error, listingId: created.listing.id }, "could not queue the owner's auto-hide email");
  }
  return { status: "sent", listingPath: `/listing/${created.listing.slug}` } satisfies ReportActionResult;
}

export default function ListingReportPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const result = actionData as ReportActionResult | undefined;
  const { listing } = loaderData;

  // After a report the listing may have just been hidden: success still shows.
  if (result?.status === "sent") {
    return (
      <div className="mx-auto max-w-xl px-4 py-10">
        <ReportSuccess>
          <Link to={result.listingPath} className="mt-2 inline-flex min-h-11 items-center font-medium underline">
            {t("report.backToListing")}
          </Link>
        </ReportSuccess>
      </div>
    );
  }
  // Not the listing page's not-found component: sharing it would split it and
  // the listing catalogue out of the listing page's chunk (first-load budget).
  if (!listing) {
    return (
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-2xl font-bold">{t("report.notFound.title")}</h1>
        <p className="mt-3 text-slate-700">{t("report.notFound.text")}</p>
        <div className="mt-6 flex justify-center">
          <ButtonLink to="/browse">{t("report.notFound.browse")}</ButtonLink>
        </div>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-xl px-4 py-8">
      <Link to={`/listing/${listing.slug}`} className="inline-flex min-h-11 items-center text-sm underline">
        {t("report.backToListing")}
      </Link>
      <h1 className="mt-2 text-2xl font-bold">{t("report.heading")}</h1>
      <p className="mt-2 break-words text-slate-700">
        {t("report.intro", { title: listing.title, adNumber: listing.adNumber })}
      </p>
      <div className="mt-6">
        <ReportForm
          FormComponent={Form}
          listingId={listing.adNumber}
          result={result}
          submitting={navigation.state === "submitting"}
          idPrefix="report"
        />
      </div>
    </div>
  );
}
