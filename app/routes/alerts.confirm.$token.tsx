import { data, Form, Link, useActionData } from "react-router";
import { Banner } from "~/components/ui/banner";
import { buttonClasses } from "~/components/ui/button";
import { t, useTranslation } from "~/i18n";
import { issueManageLink } from "~/models/alert-manage-links.server";
import { confirmSearchAlert, findConfirmableSearchAlert } from "~/models/search-alerts.server";
import { alertPageMeta } from "~/pages/alert-pages.server";
import { readAlertToken } from "~/security/alert-token.server";
import { noStore } from "~/security/no-store.server";
import { isSameOrigin } from "~/security/origin.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/alerts.confirm.$token";
import "virtual:catalogue/alerts";

// The confirmation email's link (double opt-in, ADR 058).
// Opening it changes nothing (mail scanners open links too): its Confirm
// button does. The link dies with the alert, 7 days after it was asked for.
// Only its button's answer carries a manage link, made fresh then (ADR 067):
// opening the page makes none.
export const middleware: Route.MiddlewareFunction[] = [noStore];

export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

type Problem = "invalid" | "gone" | "origin";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, env, secrets } = context.get(requestContext);
  const meta = alertPageMeta(t("alerts.meta.confirmTitle", { siteName: env.SITE_NAME }));
  const id = readAlertToken(secrets.sessionSecret, "confirm", params.token);
  if (!id) return data({ meta, problem: "invalid" as Problem, ask: null }, { status: 404 });
  const alert = await findConfirmableSearchAlert(db, id);
  if (!alert) return data({ meta, problem: "gone" as Problem, ask: null }, { status: 404 });
  return {
    meta,
    problem: null,
    ask: {
      label: alert.label,
      email: alert.email,
      already: alert.confirmedAt !== null,
    },
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db, env, secrets } = context.get(requestContext);
  const refused = (problem: Problem, status: number) =>
    data({ done: false, already: false, problem, manageHref: null }, { status });
  if (!isSameOrigin(request, env.siteUrl)) return refused("origin", 403);
  const id = readAlertToken(secrets.sessionSecret, "confirm", params.token);
  if (!id) return refused("invalid", 404);
  const confirmed = await confirmSearchAlert(db, id);
  if (!confirmed) return refused("gone", 404);
  const manageHref = `/alerts/manage/${await issueManageLink(db, confirmed.alert.email)}`;
  // Whether it was on before this press: the page's loader runs again after it and sees it on.
  return { done: true, already: confirmed.already, problem: null, manageHref };
}

export default function ConfirmAlertPage({ loaderData }: Route.ComponentProps) {
  const { t: translate } = useTranslation();
  const result = useActionData<typeof action>();
  const problem = result?.problem ?? loaderData.problem;
  const { ask } = loaderData;
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      {problem ? (
        <Banner
          variant="error"
          data-testid="alert-problem"
          title={translate(
            problem === "origin"
              ? "alerts.new.errors.origin"
              : problem === "invalid"
                ? "alerts.invalid.title"
                : "alerts.confirm.goneTitle",
          )}
        >
          {problem === "origin"
            ? null
            : translate(problem === "invalid" ? "alerts.invalid.text" : "alerts.confirm.goneText")}
        </Banner>
      ) : ask && result?.done ? (
        <Banner
          variant="success"
          data-testid="alert-confirmed"
          title={translate(result.already ? "alerts.confirm.alreadyTitle" : "alerts.confirm.doneTitle")}
        >
          <p>{translate("alerts.confirm.doneText")}</p>
          <p className="mt-2 font-medium">{ask.label}</p>
          {result.manageHref ? (
            <Link to={result.manageHref} className="mt-2 inline-block font-medium underline underline-offset-2">
              {translate("alerts.manage.heading")}
            </Link>
          ) : null}
        </Banner>
      ) : ask ? (
        <Form method="post">
          <h1 className="text-2xl font-bold">{translate("alerts.confirm.heading")}</h1>
          <p className="mt-2 text-slate-700">{translate("alerts.confirm.text", { email: ask.email })}</p>
          <p className="mt-4 rounded-lg bg-brand-50 p-3 font-medium text-brand-900 break-words">{ask.label}</p>
          <button type="submit" className={`${buttonClasses("primary", "lg")} mt-6`}>
            {translate("alerts.confirm.button")}
          </button>
        </Form>
      ) : null}
      <Link to="/browse" className="mt-6 inline-block font-medium text-brand-800 underline underline-offset-2">
        {translate("alerts.manage.browse")}
      </Link>
    </div>
  );
}
