import { data, Form, useActionData } from "react-router";
import { Banner } from "~/components/ui/banner";
import { ButtonLink, buttonClasses } from "~/components/ui/button";
import { t, useTranslation } from "~/i18n";
import { currentTime } from "~/lib/clock";
import { checkAvailabilityLink, confirmListing, markListingLet } from "~/models/listing-availability.server";
import type { AvailabilityLinkCode } from "~/schemas/result";
import { readAvailabilityToken } from "~/security/availability-token.server";
import { noStore } from "~/security/no-store.server";
import { isSameOrigin } from "~/security/origin.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/availability.$token";
import "virtual:catalogue/dashboard";

// The reminder email's one-click links (ADR 056): no sign-in,
// the signed link says which listing and which answer. Opening it changes
// nothing (mail scanners open links too); its one button does, once, and only
// while nothing else decided the listing's state since the email (ADR 063).
export const middleware: Route.MiddlewareFunction[] = [noStore];

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex" },
];

type Problem = "invalid" | "expired" | "gone" | "used";

/**
 * Why a link cannot act: its listing's state was decided since it was issued
 * ("used": 410, ADR 063), or the listing is deleted, hidden, pending or its
 * owner suspended ("gone": 404).
 */
function refused(code: AvailabilityLinkCode): { problem: Problem; status: number } {
  return code === "availability.used" ? { problem: "used", status: 410 } : { problem: "gone", status: 404 };
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, env, secrets } = context.get(requestContext);
  const read = readAvailabilityToken(secrets.sessionSecret, params.token, currentTime());
  const title = t("dashboard.availability.meta.title", { siteName: env.SITE_NAME });
  if (!read.ok) return data({ title, problem: read.problem as Problem, ask: null }, { status: 404 });
  const checked = await checkAvailabilityLink(db, read.link);
  if (!checked.ok) {
    const { problem, status } = refused(checked.code);
    return data({ title, problem, ask: null }, { status });
  }
  return { title, problem: null, ask: { answer: read.link.answer, title: checked.title } };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db, env, secrets } = context.get(requestContext);
  if (!isSameOrigin(request, env.siteUrl)) return data({ done: null, problem: "origin" as const }, { status: 403 });
  const read = readAvailabilityToken(secrets.sessionSecret, params.token, currentTime());
  if (!read.ok) return data({ done: null, problem: read.problem as Problem }, { status: 404 });
  const { listingId, answer, version } = read.link;
  const actor = { link: { version } };
  const result =
    answer === "yes" ? await confirmListing(db, actor, listingId) : await markListingLet(db, actor, listingId);
  if (!result.ok) {
    const { problem, status } = refused(result.code);
    return data({ done: null, problem }, { status });
  }
  return { done: { answer, title: result.title }, problem: null };
}

export default function AvailabilityPage({ loaderData }: Route.ComponentProps) {
  const { t: translate } = useTranslation();
  const result = useActionData<typeof action>();
  const problem = result?.problem ?? loaderData.problem;
  const done = result?.done;
  const { ask } = loaderData;
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      {done ? (
        <Banner
          variant="success"
          data-testid="availability-done"
          title={
            done.answer === "yes"
              ? translate("dashboard.availability.confirmed", { title: done.title })
              : translate("dashboard.availability.let", { title: done.title })
          }
        />
      ) : problem ? (
        <Banner
          variant="error"
          data-testid="availability-problem"
          title={
            problem === "origin"
              ? translate("dashboard.availability.origin")
              : translate(`dashboard.availability.${problem}Title`)
          }
        >
          {problem === "origin" ? null : translate(`dashboard.availability.${problem}Text`)}
        </Banner>
      ) : ask ? (
        <Form method="post">
          <h1 className="text-2xl font-bold break-words">
            {ask.answer === "yes"
              ? translate("dashboard.availability.askYes", { title: ask.title })
              : translate("dashboard.availability.askNo", { title: ask.title })}
          </h1>
          <p className="mt-2 text-slate-700">
            {ask.answer === "yes"
              ? translate("dashboard.availability.yesText")
              : translate("dashboard.availability.noText")}
          </p>
          <button type="submit" className={`${buttonClasses("primary", "lg")} mt-6`}>
            {ask.answer === "yes"
              ? translate("dashboard.availability.yesButton")
              : translate("dashboard.availability.noButton")}
          </button>
        </Form>
      ) : null}
      <ButtonLink to="/dashboard" variant="secondary" className="mt-6">
        {translate("dashboard.availability.myAds")}
      </ButtonLink>
    </div>
  );
}
