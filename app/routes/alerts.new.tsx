import { data, Form, Link, redirect, useActionData, useNavigation } from "react-router";
import { getSessionUser } from "~/auth/auth.server";
import { HoneypotField } from "~/components/forms/honeypot-field";
import { Banner } from "~/components/ui/banner";
import { buttonClasses } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { EmailInput } from "~/components/ui/text-input";
import { type MessageKey, t, useTranslation } from "~/i18n";
import { normalizeEmail } from "~/lib/email";
import { alertEmailAllowed } from "~/limits/alert-emails.server";
import { alertRequestMail } from "~/mail/alert-mails.server";
import { issueManageLink } from "~/models/alert-manage-links.server";
import { enqueueMail } from "~/models/outbox.server";
import { ALERTS_PER_ADDRESS, requestSearchAlert } from "~/models/search-alerts.server";
import { alertPageMeta, alertSearch } from "~/pages/alert-pages.server";
import { ALERT_EMAIL_MAX, alertEmailSchema } from "~/schemas/alert";
import { isHoneypotFilled } from "~/schemas/honeypot";
import { noStore } from "~/security/no-store.server";
import { isSameOrigin } from "~/security/origin.server";
import { readForm } from "~/security/read-form.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/alerts.new";
import "virtual:catalogue/alerts";

// 'Email me new places like these' (ADR 058): browse links
// here with its filters. The address gets one email, whatever it already has
// (a link to confirm, 'already on', or 'you have 10'), so the page tells a
// stranger nothing about it; a signed-in user's own address needs no link once
// the account confirmed it (ADR 066). Only then does a response carry a manage
// link: every other one goes to the address by email (ADR 067).
export const middleware: Route.MiddlewareFunction[] = [noStore];

export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(requestContext);
  const url = new URL(request.url);
  const search = alertSearch(url.searchParams.toString());
  const user = await getSessionUser(request, context);
  return {
    meta: alertPageMeta(t("alerts.meta.newTitle", { siteName: env.SITE_NAME })),
    search,
    email: user?.email ?? "",
    // 'Starts at once' is only true for a confirmed address (ADR 066).
    signedIn: user?.emailConfirmed === true,
    sent: url.searchParams.get("sent") === "1",
  };
}

type Problem = { email?: string; form?: string; manageHref?: string };

function refused(status: number, key: MessageKey, values?: Record<string, unknown>, email = "") {
  return data({ problem: { form: t(key, values) } as Problem, email }, { status });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db, env, secrets, limiter, clientIp, locale } = context.get(requestContext);
  if (!isSameOrigin(request, env.siteUrl)) return refused(403, "alerts.new.errors.origin");
  const form = await readForm(request);
  const search = alertSearch(String(form.get("query") ?? ""));
  const sentTo = `/alerts/new?${search.query ? `${search.query}&` : ""}sent=1`;
  // A bot that fills every field is told what a person is, and nothing is sent.
  if (isHoneypotFilled(form)) return redirect(sentTo, 303);

  const given = String(form.get("email") ?? "");
  const parsed = alertEmailSchema.safeParse(given);
  if (!parsed.success)
    return data(
      { problem: { email: t(parsed.error.issues[0].message as MessageKey) } as Problem, email: given },
      { status: 400 },
    );
  const email = normalizeEmail(parsed.data);
  const user = await getSessionUser(request, context);
  // An account whose address is not confirmed is a stranger to it (ADR 066).
  const ownAddress = user?.emailConfirmed === true && normalizeEmail(user.email) === email;

  if (!ownAddress) {
    // Every request for another address sends it an email: limited per network and per address.
    const decision = await alertEmailAllowed(limiter, email, clientIp);
    if (!decision.ok)
      return refused(
        429,
        decision.unavailable ? "alerts.new.errors.unavailable" : "alerts.new.errors.tooMany",
        {},
        given,
      );
  }

  const asked = await requestSearchAlert(db, { email, locale, ...search, confirmed: ownAddress });
  const token = await issueManageLink(db, email);
  const site = { siteName: env.SITE_NAME, siteUrl: env.siteUrl, secret: secrets.sessionSecret };
  if (ownAddress) {
    if (asked.outcome === "full")
      return data(
        {
          problem: {
            form: t("alerts.new.errors.full", { max: ALERTS_PER_ADDRESS }),
            manageHref: `/alerts/manage/${token}`,
          } as Problem,
          email: given,
        },
        { status: 409 },
      );
    return redirect(`/alerts/manage/${token}?done=${asked.outcome === "exists" ? "exists" : "on"}`, 303);
  }
  await enqueueMail(
    db,
    alertRequestMail(
      site,
      asked.outcome === "full" ? { outcome: "full", email, locale } : asked,
      token,
      search.mailLabel,
    ),
  );
  return redirect(sentTo, 303);
}

export default function NewAlertPage({ loaderData }: Route.ComponentProps) {
  const { t: translate } = useTranslation();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { search, signedIn, sent } = loaderData;
  const problem = result?.problem;
  const backHref = search.query ? `/browse?${search.query}` : "/browse";
  return (
    <div className="mx-auto max-w-2xl px-4 py-8">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{translate("alerts.new.heading")}</h1>
      <p className="mt-2 text-slate-700">{translate("alerts.new.intro")}</p>

      <h2 className="mt-6 font-semibold">{translate("alerts.new.watching")}</h2>
      <ul className="mt-2 flex flex-wrap gap-2" data-testid="alert-search">
        {(search.labels.length > 0 ? search.labels : [search.label]).map((label) => (
          <li key={label} className="rounded-full bg-brand-50 px-3 py-1 text-sm font-medium text-brand-900">
            {label}
          </li>
        ))}
      </ul>

      {sent && !result ? (
        <Banner variant="success" title={translate("alerts.new.sentTitle")} className="mt-6" data-testid="alert-sent">
          {translate("alerts.new.sentText")}
        </Banner>
      ) : null}
      {problem?.form ? (
        <Banner variant="error" title={problem.form} className="mt-6" data-testid="alert-problem">
          {problem.manageHref ? (
            <Link to={problem.manageHref} className="font-medium underline underline-offset-2">
              {translate("alerts.manage.heading")}
            </Link>
          ) : null}
        </Banner>
      ) : null}

      <Form method="post" className="mt-6 space-y-4" noValidate>
        <input type="hidden" name="query" value={search.query} />
        <HoneypotField id="alert-website" label={translate("alerts.new.honeypot")} />
        <FormField
          id="alert-email"
          name="email"
          label={translate("alerts.new.email")}
          hint={translate(signedIn ? "alerts.new.signedInHelp" : "alerts.new.emailHelp")}
          error={problem?.email}
          required
        >
          {(control) => (
            <EmailInput
              control={control}
              maxLength={ALERT_EMAIL_MAX}
              defaultValue={result?.email ?? loaderData.email}
            />
          )}
        </FormField>
        <div className="flex flex-wrap items-center gap-4">
          <button type="submit" className={buttonClasses("primary", "lg")} disabled={navigation.state === "submitting"}>
            {translate("alerts.new.submit")}
          </button>
          <Link to={backHref} className="font-medium text-brand-800 underline underline-offset-2">
            {translate("alerts.new.back")}
          </Link>
        </div>
      </Form>
    </div>
  );
}
