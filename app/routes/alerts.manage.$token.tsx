import { data, Form, Link, redirect } from "react-router";
import { Banner } from "~/components/ui/banner";
import { buttonClasses } from "~/components/ui/button";
import { t, useTranslation } from "~/i18n";
import { alertEmailAllowed } from "~/limits/alert-emails.server";
import { alertManageLinkMail } from "~/mail/alert-mails.server";
import { issueManageLink, readManageLink, revokeManageLinks } from "~/models/alert-manage-links.server";
import { enqueueMail } from "~/models/outbox.server";
import { alertsOfAddress, restartSearchAlert, stopAlertsOfAddress } from "~/models/search-alerts.server";
import { type AlertRow, alertPageMeta, toAlertRow } from "~/pages/alert-pages.server";
import { noStore } from "~/security/no-store.server";
import { isSameOrigin } from "~/security/origin.server";
import { readForm } from "~/security/read-form.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/alerts.manage.$token";
import "virtual:catalogue/alerts";

// One address's alerts (ADR 058), from the manage link in
// any of its emails: no account needed. The link is random, stored hashed,
// good for 30 days and revocable (ADR 067); every change is limited to that
// address's alerts. An expired link, or an old signed one, opens nothing: its
// page offers to email a fresh link to the address (limited like alert emails).
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

/** invalid: nothing to offer; renew: an old or expired link of a known address. */
type Closed = "invalid" | "renew";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, env } = context.get(requestContext);
  const meta = alertPageMeta(t("alerts.meta.manageTitle", { siteName: env.SITE_NAME }));
  const link = await readManageLink(db, params.token);
  if (link.state !== "valid") {
    const closed: Closed = link.state === "unknown" ? "invalid" : "renew";
    return data({ meta, closed, email: null, rows: [] as AlertRow[], done: null }, { status: 404 });
  }
  const alerts = await alertsOfAddress(db, link.email);
  const done = new URL(request.url).searchParams.get("done");
  return {
    meta,
    closed: null,
    email: link.email,
    rows: alerts.map(toAlertRow),
    done: done && Object.hasOwn(NOTICES, done) ? (done as Done) : null,
  };
}

type Problem = "invalid" | "origin" | "tooMany" | "unavailable";
const refused = (problem: Problem, status: number) => data({ problem, answer: null }, { status });
const answered = (answer: "freshSent" | "revoked") => ({ problem: null, answer });

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db, env, secrets, limiter, clientIp, locale } = context.get(requestContext);
  const link = await readManageLink(db, params.token);
  if (link.state === "unknown") return refused("invalid", 404);
  if (!isSameOrigin(request, env.siteUrl)) return refused("origin", 403);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (link.state !== "valid") {
    if (intent !== "sendFresh") return refused("invalid", 404);
    // An email to the address, asked for by whoever holds an old link: limited like alert emails.
    const decision = await alertEmailAllowed(limiter, link.email, clientIp);
    if (!decision.ok) return refused(decision.unavailable ? "unavailable" : "tooMany", 429);
    const site = { siteName: env.SITE_NAME, siteUrl: env.siteUrl, secret: secrets.sessionSecret };
    await enqueueMail(db, alertManageLinkMail(site, link.email, locale, await issueManageLink(db, link.email)));
    return answered("freshSent");
  }
  const id = String(form.get("alert") ?? "");
  let done: Done;
  if (intent === "revoke") {
    await revokeManageLinks(db, link.email);
    return answered("revoked");
  } else if (intent === "stopAll") {
    await stopAlertsOfAddress(db, link.email, null);
    done = "stoppedAll";
  } else if (intent === "stop" && id) {
    // Another address's alert is not among this link's: nothing stops.
    if ((await stopAlertsOfAddress(db, link.email, id)) === 0) return refused("invalid", 404);
    done = "stopped";
  } else if (intent === "restart" && id) {
    done = (await restartSearchAlert(db, link.email, id)) ? "restarted" : "cannotRestart";
  } else {
    return refused("invalid", 400);
  }
  return redirect(`/alerts/manage/${params.token}?done=${done}`, 303);
}

const PROBLEM_TEXT = {
  origin: "alerts.new.errors.origin",
  tooMany: "alerts.new.errors.tooMany",
  unavailable: "alerts.new.errors.unavailable",
} as const;

export default function ManageAlertsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t: translate } = useTranslation();
  const { closed, email, rows, done } = loaderData;
  const problem = actionData?.problem;
  if (actionData?.answer === "revoked")
    return (
      <div className="mx-auto max-w-2xl px-4 py-10">
        <Banner variant="success" title={translate("alerts.manage.revokedTitle")} data-testid="alerts-revoked">
          {translate("alerts.manage.revokedText")}
        </Banner>
      </div>
    );
  if (closed === "renew")
    return (
      <div className="mx-auto max-w-2xl px-4 py-10">
        {actionData?.answer === "freshSent" ? (
          <Banner variant="success" title={translate("alerts.manage.freshSent")} data-testid="alerts-fresh-sent" />
        ) : (
          <Banner variant="error" title={translate("alerts.manage.oldTitle")} data-testid="alert-problem">
            <p>{translate("alerts.manage.oldText")}</p>
            {problem && problem !== "invalid" ? (
              <p className="mt-2 font-medium">{translate(PROBLEM_TEXT[problem])}</p>
            ) : null}
            <Form method="post" className="mt-3">
              <input type="hidden" name="intent" value="sendFresh" />
              <button type="submit" className={buttonClasses("secondary", "md")}>
                {translate("alerts.manage.sendFresh")}
              </button>
            </Form>
          </Banner>
        )}
      </div>
    );
  if (closed || problem === "invalid")
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
      {problem === "origin" ? (
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
      <Form method="post" className="mt-8 border-t border-slate-200 pt-6">
        <input type="hidden" name="intent" value="revoke" />
        <p className="text-sm text-slate-700">{translate("alerts.manage.revokeHelp")}</p>
        <button type="submit" className={`${buttonClasses("secondary", "md")} mt-3`}>
          {translate("alerts.manage.revoke")}
        </button>
      </Form>
    </div>
  );
}
