import { data, Form, Link } from "react-router";
import { Banner } from "~/components/ui/banner";
import { buttonClasses } from "~/components/ui/button";
import { t, useTranslation } from "~/i18n";
import { issueManageLink } from "~/models/alert-manage-links.server";
import { stopSearchAlert } from "~/models/search-alerts.server";
import { alertPageMeta } from "~/pages/alert-pages.server";
import { readAlertToken } from "~/security/alert-token.server";
import { noStore } from "~/security/no-store.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/alerts.stop.$token";
import "virtual:catalogue/alerts";

// An alert email's stop link (ADR 058): one click stops the
// alert, no sign-in, and the page offers Undo (posted to the manage page, so
// this page's loader never undoes it) for the odd link a mail scanner opened.
// The email's List-Unsubscribe header is its twin, /alerts/unsubscribe/{token}
// (a resource route for mail services' one-click POST). The signed link names
// one alert: it can stop no other. It came in an alert email to the address, so
// its page may carry a fresh manage link (ADR 067).
export const middleware: Route.MiddlewareFunction[] = [noStore];

export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

type State = "stopped" | "invalid" | "gone";
type Answer = { state: State; id: string | null; label: string | null; manageHref: string | null };

const STATUS: Record<State, number> = { stopped: 200, invalid: 404, gone: 404 };

function answer(state: State, alert?: { id: string; label: string } | null, manageToken?: string) {
  const body: Answer = {
    state,
    id: alert?.id ?? null,
    label: alert?.label ?? null,
    manageHref: alert && manageToken ? `/alerts/manage/${manageToken}` : null,
  };
  return data(body, { status: STATUS[state] });
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, env, secrets } = context.get(requestContext);
  const meta = alertPageMeta(t("alerts.meta.stopTitle", { siteName: env.SITE_NAME }));
  const id = readAlertToken(secrets.sessionSecret, "stop", params.token);
  if (!id) return data({ meta, ...answer("invalid").data }, { status: 404 });
  const alert = await stopSearchAlert(db, id);
  const result = answer(alert ? "stopped" : "gone", alert, alert ? await issueManageLink(db, alert.email) : undefined);
  return data({ meta, ...result.data }, { status: result.init?.status });
}

export default function StopAlertPage({ loaderData }: Route.ComponentProps) {
  const { t: translate } = useTranslation();
  const result = loaderData;
  const { state, id, label, manageHref } = result;
  const title = {
    stopped: "alerts.stop.doneTitle",
    invalid: "alerts.invalid.title",
    gone: "alerts.stop.goneTitle",
  } as const;
  const text = {
    stopped: "alerts.stop.doneText",
    invalid: "alerts.invalid.text",
    gone: "alerts.stop.goneText",
  } as const;
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <Banner
        variant={state === "stopped" ? "success" : "error"}
        title={translate(title[state])}
        data-testid={`alert-${state}`}
      >
        <p>{translate(text[state])}</p>
        {label ? <p className="mt-2 font-medium break-words">{label}</p> : null}
      </Banner>
      {state === "stopped" && manageHref && id ? (
        <Form method="post" action={manageHref} className="mt-6">
          <input type="hidden" name="intent" value="restart" />
          <input type="hidden" name="alert" value={id} />
          <button type="submit" className={buttonClasses("secondary", "lg")}>
            {translate("alerts.stop.undo")}
          </button>
        </Form>
      ) : null}
      <div className="mt-6 flex flex-wrap gap-4">
        {manageHref ? (
          <Link to={manageHref} className="font-medium text-brand-800 underline underline-offset-2">
            {translate("alerts.manage.heading")}
          </Link>
        ) : null}
        <Link to="/browse" className="font-medium text-brand-800 underline underline-offset-2">
          {translate("alerts.manage.browse")}
        </Link>
      </div>
    </div>
  );
}
