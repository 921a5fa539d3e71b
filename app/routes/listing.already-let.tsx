import { data, Form, Link, redirect, useActionData } from "react-router";
import { getSessionUser } from "~/auth/auth.server";
import { Banner } from "~/components/ui/banner";
import { buttonClasses } from "~/components/ui/button";
import { t, useTranslation } from "~/i18n";
import { householdNetwork } from "~/limits/client-ip.server";
import { retryAfterHeaders } from "~/limits/rate-limit.server";
import { emailOwnerAboutUnconfirmed } from "~/mail/availability-mails.server";
import { reportAlreadyLet } from "~/models/let-reports.server";
import { findListingBySlug } from "~/models/listing.server";
import { hashViewerId } from "~/models/view-tracking.server";
import { noStore } from "~/security/no-store.server";
import { isSameOrigin } from "~/security/origin.server";
import { visitorIdentity } from "~/security/visitor-id.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/listing.already-let";
import "virtual:catalogue/report";

// 'Already let? Tell us' (ADR 057; who counts: ADR 064): a page of its own, so the
// listing page carries only a link. Works the same with or without JavaScript.
export const middleware: Route.MiddlewareFunction[] = [noStore];

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.pageTitle ?? "" },
  { name: "robots", content: "noindex" },
];

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, env } = context.get(requestContext);
  const pageTitle = t("report.alreadyLet.meta.title", { siteName: env.SITE_NAME });
  const found = await findListingBySlug(db, params.slug);
  if (!found?.isPublic) return data({ pageTitle, listing: null }, { status: 404 });
  if (found.slug !== params.slug) throw redirect(`/listing/${found.slug}/already-let`, 301);
  return { pageTitle, listing: { id: Number(found.id), slug: found.slug, title: found.title } };
}

type Answer = { status: "thanks" | "already" | "refused"; message: string };

function answer(status: Answer["status"], message: string, init?: ResponseInit) {
  return data({ status, message } satisfies Answer, init);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db, env, secrets, limiter, clientIp, log } = context.get(requestContext);
  if (!isSameOrigin(request, env.siteUrl)) return answer("refused", t("report.alreadyLet.origin"), { status: 403 });
  const found = await findListingBySlug(db, params.slug);
  if (!found?.isPublic) return answer("refused", t("report.alreadyLet.notFound"), { status: 404 });
  const decision = await limiter.consume("letReportNetwork", { ip: clientIp });
  if (!decision.ok)
    return answer("refused", t("report.alreadyLet.tooMany"), { status: 429, headers: retryAfterHeaders(decision) });

  // One answer per browser (its signed visitor id; a browser without one gets one now) and per
  // account. Whether it counts is the model's rule (ADR 064); the answer is the same either way.
  const secure = env.siteUrl.startsWith("https:");
  const visitor = visitorIdentity(request.headers.get("cookie"), secrets.sessionSecret, { secure });
  const headers = visitor.setCookie ? { "Set-Cookie": visitor.setCookie } : undefined;
  const visitorKey = hashViewerId(secrets.visitorSalt, "visitor", visitor.visitorId);
  const userId = (await getSessionUser(request, context))?.id ?? null;
  const allowance = { visitor: userId ? `user:${userId}` : visitorKey, ip: clientIp };
  const listingId = Number(found.id);
  const outcome = await reportAlreadyLet(db, listingId, {
    visitorKey,
    userId,
    originGroup: householdNetwork(clientIp),
    mayCount: (await limiter.check("letReportCounted", allowance)).ok,
  });
  if (!outcome.ok) return answer("refused", t("report.alreadyLet.notFound"), { status: 404, headers });
  if (outcome.counted) await limiter.record("letReportCounted", allowance);
  if (outcome.unconfirmedNow) log.info({ listingId }, "listing availability unconfirmed by students' answers");
  if (outcome.askOwner)
    await emailOwnerAboutUnconfirmed(
      db,
      { siteName: env.SITE_NAME, siteUrl: env.siteUrl, secret: secrets.sessionSecret },
      listingId,
    );
  return outcome.repeated
    ? answer("already", t("report.alreadyLet.already"), { headers })
    : answer("thanks", t("report.alreadyLet.thanks"), { headers });
}

export default function AlreadyLetPage({ loaderData }: Route.ComponentProps) {
  const { t: translate } = useTranslation();
  const result = useActionData<typeof action>();
  const { listing } = loaderData;
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      {!listing ? (
        <Banner variant="error" title={translate("report.alreadyLet.notFound")} />
      ) : result ? (
        <Banner
          variant={result.status === "refused" ? "error" : "success"}
          title={result.message}
          data-testid="already-let-answer"
        />
      ) : (
        <Form method="post">
          <h1 className="text-2xl font-bold break-words">
            {translate("report.alreadyLet.heading", { title: listing.title })}
          </h1>
          <p className="mt-2 text-slate-700">{translate("report.alreadyLet.text")}</p>
          <button type="submit" className={`${buttonClasses("primary", "lg")} mt-6`}>
            {translate("report.alreadyLet.button")}
          </button>
        </Form>
      )}
      {listing ? (
        <Link
          to={`/listing/${listing.slug}`}
          className="mt-6 inline-flex min-h-11 items-center font-medium text-brand-700 underline underline-offset-2"
        >
          {translate("report.alreadyLet.back")}
        </Link>
      ) : null}
    </div>
  );
}
