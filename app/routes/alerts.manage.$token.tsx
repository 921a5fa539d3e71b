import { data, Form, Link, redirect } from "react-router";
import { Banner } from "~/components/ui/banner";
import { buttonClasses } from "~/components/ui/button";
import { t, useTranslation } from "~/i18n";
import { alertsOfAddress, restartSearchAlert, stopAlertsOfAddress } from "~/models/search-alerts.server";
import { type AlertRow, alertPageMeta, toAlertRow } from "~/pages/alert-pages.server";
import { manageKeyOf } from "~/security/alert-token.server";
import { noStore } from "~/security/no-store.server";
import { isSameOrigin } from "~/security/origin.server";
import { readForm } from "~/security/read-form.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/alerts.manage.$token";
import "virtual:catalogue/alerts";

// One address's alerts (issue 13, point 3; ADR 058), from the manage link in
// any of its emails: no account needed. The link is a signature of the
// address; the database keeps only its hash, and every change is limited to
// that address's alerts.
export const middleware: Route.MiddlewareFunction[] = [noStore];

export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

const NOTICES = {
  on: "alerts.manage.onNow",
  exists: "alerts.manage.exists",
  stopped: "alerts.manage.stopped",
  stoppedAll: "alerts.manage.stoppedAll",
  restarted: "alerts.stop.restartedTitle",
  cannotRestart: "alerts.stop.cannotRestart",
} as const;
type Done = keyof typeof NOTICES;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, env } = context.get(requestContext);
  const meta = alertPageMeta(t("alerts.meta.manageTitle", { siteName: env.SITE_NAME }));
  const manageKey = manageKeyOf(params.token);
  if (!manageKey) return data({ meta, valid: false, email: null, rows: [] as AlertRow[], done: null }, { status: 404 });
  const alerts = await alertsOfAddress(db, manageKey);
  const done = new URL(request.url).searchParams.get("done");
  return {
    meta,
    valid: true,
    email: alerts[0]?.email ?? null,
    rows: alerts.map(toAlertRow),
    done: done && Object.hasOwn(NOTICES, done) ? (done as Done) : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db, env } = context.get(requestContext);
  const manageKey = manageKeyOf(params.token);
  if (!manageKey) return data({ problem: "invalid" as const }, { status: 404 });
  if (!isSameOrigin(request, env.siteUrl)) return data({ problem: "origin" as const }, { status: 403 });
  const form = await readForm(request);
  const intent = form.get("intent");
  const id = String(form.get("alert") ?? "");
  let done: Done;
  if (intent === "stopAll") {
    await stopAlertsOfAddress(db, manageKey, null);
    done = "stoppedAll";
  } else if (intent === "stop" && id) {
    // Another address's alert is not among this link's: nothing stops.
    if ((await stopAlertsOfAddress(db, manageKey, id)) === 0)
      return data({ problem: "invalid" as const }, { status: 404 });
    done = "stopped";
  } else if (intent === "restart" && id) {
    done = (await restartSearchAlert(db, manageKey, id)) ? "restarted" : "cannotRestart";
  } else {
    return data({ problem: "invalid" as const }, { status: 400 });
  }
  return redirect(`/alerts/manage/${params.token}?done=${done}`, 303);
}

export default function ManageAlertsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t: translate } = useTranslation();
  const { valid, email, rows, done } = loaderData;
  if (!valid || actionData?.problem === "invalid")
    return (
      <div className="mx-auto max-w-2xl px-4 py-10">
        <Banner variant="error" title={translate("alerts.invalid.title")} data-testid="alert-problem">
          {translate("alerts.invalid.text")}
        </Banner>
      </div>
    );
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{translate("alerts.manage.heading")}</h1>
      {email ? <p className="mt-2 text-slate-700">{translate("alerts.manage.intro", { email })}</p> : null}
      {actionData?.problem === "origin" ? (
        <Banner variant="error" title={translate("alerts.new.errors.origin")} className="mt-4" />
      ) : done ? (
        <Banner
          variant={done === "cannotRestart" ? "error" : "success"}
          title={translate(NOTICES[done])}
          className="mt-4"
          data-testid="alerts-notice"
        />
      ) : null}
      {rows.length === 0 ? (
        <div className="mt-6 rounded-lg border border-slate-200 p-6">
          <h2 className="text-lg font-semibold">{translate("alerts.manage.none")}</h2>
          <p className="mt-1 text-slate-700">{translate("alerts.manage.noneText")}</p>
          <Link to="/browse" className={`${buttonClasses("primary", "md")} mt-4`}>
            {translate("alerts.manage.browse")}
          </Link>
        </div>
      ) : (
        <>
          <ul className="mt-6 space-y-3" data-testid="alert-list">
            {rows.map((row) => (
              <li key={row.id} className="rounded-lg border border-slate-200 p-4">
                <p className="font-semibold break-words">{row.label}</p>
                <p className="mt-1 text-sm text-slate-700">
                  {row.waiting ? translate("alerts.manage.waiting") : translate("alerts.manage.on")}
                  {row.lastSent ? ` · ${row.lastSent}` : ""}
                </p>
                <div className="mt-3 flex flex-wrap items-center gap-4">
                  <Link to={row.href} className="font-medium text-brand-800 underline underline-offset-2">
                    {translate("alerts.manage.see")}
                  </Link>
                  <Form method="post">
                    <input type="hidden" name="intent" value="stop" />
                    <input type="hidden" name="alert" value={row.id} />
                    <button
                      type="submit"
                      className={buttonClasses("secondary", "md")}
                      aria-label={translate("alerts.manage.stopLabel", { label: row.label })}
                    >
                      {translate("alerts.manage.stop")}
                    </button>
                  </Form>
                </div>
              </li>
            ))}
          </ul>
          <Form method="post" className="mt-6">
            <input type="hidden" name="intent" value="stopAll" />
            <button type="submit" className={buttonClasses("secondary", "md")}>
              {translate("alerts.manage.stopAll")}
            </button>
          </Form>
        </>
      )}
    </div>
  );
}
