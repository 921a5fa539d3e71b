import { useEffect } from "react";
import { data, Form, Link, redirect, type ShouldRevalidateFunction, useNavigate, useNavigation } from "react-router";
import { cookieHeaders, getAuth, getSessionUser } from "~/auth/auth.server";
import { AuthErrorBanner } from "~/components/accounts/auth-banner";
import { PasswordInput } from "~/components/accounts/password-input";
import { useEnhanced } from "~/components/forms/use-enhanced";
import { useFormFailure } from "~/components/forms/use-form-failure";
import { Banner } from "~/components/ui/banner";
import { Button } from "~/components/ui/button";
import { FormField, fieldsOf } from "~/components/ui/form-field";
import { EmailInput } from "~/components/ui/text-input";
import { type MessageKey, useTranslation } from "~/i18n";
import { type ErrorKind, friendlyError } from "~/lib/error-messages";
import { nextAttempt } from "~/lib/form-attempt";
import { privatePageMeta } from "~/lib/route-meta";
import { safeRedirect } from "~/lib/safe-redirect";
import { reserveLoginAttempt } from "~/limits/login-throttle.server";
import { retryAfterHeaders } from "~/limits/rate-limit.server";
import { refusalHeaders, refusalOf } from "~/limits/refusal.server";
import { type LoginField, parseForgotPasswordForm, parseLoginForm } from "~/schemas/login";
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from "~/schemas/signup";
import { noStore } from "~/security/no-store.server";
import { isSameOrigin } from "~/security/origin.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/login";
import "virtual:catalogue/accounts";
import { readForm } from "~/security/read-form.server";

export const meta: Route.MetaFunction = privatePageMeta({
  title: "accounts.login.metaTitle",
  description: "accounts.login.metaDescription",
  path: "/login",
});

/** Never cached anywhere (ADR 016): private, or about signing in. */
export const middleware: Route.MiddlewareFunction[] = [noStore];

export const headers: Route.HeadersFunction = refusalHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(requestContext);
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/dashboard", env.siteUrl);
  if (await getSessionUser(request, context)) throw redirect(redirectTo);
  return { redirectTo };
}

type ActionResult =
  | { status: "success"; redirectTo: string }
  | { status: "resetSent" }
  | {
      status: "failed";
      message: MessageKey;
      kind: ErrorKind;
      attempt: number;
      errors: Partial<Record<LoginField, MessageKey>>;
      email: string;
    };

/** What the banner and fields show after a refused try, from the browser's check or the action. */
type Failure = { message: MessageKey; kind: ErrorKind; errors: Partial<Record<LoginField, MessageKey>> };

export async function action({ request, context }: Route.ActionArgs) {
  const info = context.get(requestContext);
  const form = await readForm(request);
  const attempt = nextAttempt(form);
  const email = typeof form.get("email") === "string" ? String(form.get("email")).slice(0, EMAIL_MAX_LENGTH) : "";
  const fail = (
    message: MessageKey,
    kind: ErrorKind,
    status: number,
    errors: Partial<Record<LoginField, MessageKey>> = {},
    headers?: HeadersInit,
  ) => data({ status: "failed", message, kind, attempt, errors, email } satisfies ActionResult, { status, headers });

  if (!isSameOrigin(request, info.env.siteUrl)) return fail("accounts.errors.database.permission-denied", "auth", 403);

  if (form.get("intent") === "forgot") {
    const parsed = parseForgotPasswordForm(form);
    if (!parsed.ok) return fail(parsed.first, "validation", 400, { email: parsed.first });
    // Counted per address whether or not an account has it, so neither answer tells.
    const allowed = await info.limiter.consume("resetEmail", { account: parsed.data.email });
    if (!allowed.ok) {
      const refused = refusalOf(allowed, "accounts.limits.resetEmail");
      return fail(refused.message, "auth", refused.status, {}, retryAfterHeaders(allowed));
    }
    try {
      await getAuth(info).api.requestPasswordReset({ body: { email: parsed.data.email }, headers: request.headers });
    } catch (error) {
      // The answer stays the same whether or not the account exists or the mail could be queued.
      info.log.error({ err: error }, "password reset request failed");
    }
    return { status: "resetSent" } satisfies ActionResult;
  }

  const parsed = parseLoginForm(form, info.env.siteUrl);
  if (!parsed.ok) return fail(parsed.first, "validation", 400, parsed.errors);
  const { redirectTo, ...credentials } = parsed.data;

  // Reserved before the password is even looked at (a right one too), so a
  // parallel burst cannot pass the limits before its first failure is counted
  // (app/limits/login-throttle.server.ts, ADR 016).
  const attemptSlot = await reserveLoginAttempt(info.limiter, credentials.email, info.clientIp);
  if (!attemptSlot.ok) {
    const refused = refusalOf(attemptSlot, "accounts.errors.auth.too-many-requests");
    return fail(refused.message, "auth", refused.status, {}, retryAfterHeaders(attemptSlot));
  }

  try {
    const { headers } = await getAuth(info).api.signInEmail({
      body: credentials,
      headers: request.headers,
      returnHeaders: true,
    });
    await attemptSlot.settle("success");
    const init = { headers: cookieHeaders(headers) };
    if (form.get("enhanced") !== "1") return redirect(redirectTo, init);
    return data({ status: "success", redirectTo } satisfies ActionResult, init);
  } catch (error) {
    const friendly = friendlyError(error);
    if (friendly.kind === "unknown") info.log.error({ err: error }, "login failed unexpectedly");
    // Only a wrong email or password counts against the limits, not an outage.
    await attemptSlot.settle(friendly.kind === "auth" ? "failure" : "error");
    return fail(
      friendly.kind === "unknown" ? "accounts.login.failed" : friendly.key,
      friendly.kind,
      friendly.kind === "network" ? 503 : 401,
    );
  }
}

/**
 * After a successful sign-in this page's loader would see the new session and
 * redirect at once, so the success message would only flash: the page is not
 * revalidated then, and the timer below goes on after the spec's one second.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  (actionResult as ActionResult | undefined)?.status === "success" ? false : defaultShouldRevalidate;

/** The success message shows for a second before the dashboard. */
const REDIRECT_DELAY_MS = 1000;

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as ActionResult | undefined;
  const navigate = useNavigate();
  const navigation = useNavigation();
  const enhanced = useEnhanced();
  const busy = navigation.state === "submitting";
  const { failure, attempt, focusRef, browserFound } = useFormFailure<Failure>(
    actionData,
    result?.status === "failed" ? result : null,
  );
  useEffect(() => {
    if (result?.status !== "success") return;
    const timer = setTimeout(() => navigate(result.redirectTo, { replace: true }), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [result, navigate]);

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const form = new FormData(event.currentTarget);
    const checked = submitter?.value === "forgot" ? parseForgotPasswordForm(form) : parseLoginForm(form);
    if (checked.ok) return;
    event.preventDefault();
    browserFound({ message: checked.first, kind: "validation", errors: {} });
  };

  const fieldErrors = failure?.errors ?? {};
  const field = fieldsOf<LoginField>({
    idPrefix: "login",
    label: (name) => t(`accounts.login.${name}`),
    error: (name) => (fieldErrors[name] ? t(fieldErrors[name]) : undefined),
  });

  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-3xl font-bold">{t("accounts.login.heading")}</h1>
      <p className="mt-2 text-slate-700">{t("accounts.login.intro")}</p>

      <div ref={focusRef} tabIndex={-1} className="mt-6 scroll-mt-24 empty:hidden">
        {result?.status === "success" ? <Banner variant="success" title={t("accounts.login.success")} /> : null}
        {result?.status === "resetSent" ? <Banner variant="success" title={t("accounts.forgot.sent")} /> : null}
        {failure ? <AuthErrorBanner message={t(failure.message)} kind={failure.kind} attempt={attempt} /> : null}
      </div>

      <Form method="post" noValidate onSubmit={onSubmit} className="mt-6 space-y-5">
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <input type="hidden" name="attempt" value={attempt} />
        {enhanced ? <input type="hidden" name="enhanced" value="1" /> : null}
        <FormField {...field("email")}>
          {(control) => (
            <EmailInput
              control={control}
              maxLength={EMAIL_MAX_LENGTH}
              defaultValue={result?.status === "failed" ? result.email : ""}
            />
          )}
        </FormField>
        <FormField {...field("password")}>
          {(control) => <PasswordInput {...control} autoComplete="current-password" maxLength={PASSWORD_MAX_LENGTH} />}
        </FormField>
        <label className="flex min-h-11 items-center gap-3">
          <input type="checkbox" name="rememberMe" defaultChecked className="h-5 w-5 accent-brand-700" />
          <span>{t("accounts.login.rememberMe")}</span>
        </label>
        <Button type="submit" name="intent" value="login" size="lg" disabled={busy} className="w-full">
          {busy && navigation.formData?.get("intent") === "login"
            ? t("accounts.login.submitting")
            : t("accounts.login.submit")}
        </Button>
        {/* After the main button so Enter in a field logs in rather than asking for a reset. */}
        <button
          type="submit"
          name="intent"
          value="forgot"
          formNoValidate
          disabled={busy}
          className="min-h-11 font-medium text-brand-700 underline"
        >
          {busy && navigation.formData?.get("intent") === "forgot"
            ? t("accounts.forgot.sending")
            : t("accounts.login.forgotPassword")}
        </button>
      </Form>

      <p className="mt-8 text-slate-700">
        {t("accounts.login.noAccount")}{" "}
        <Link to="/signup" className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline">
          {t("accounts.login.signupLink")}
        </Link>
      </p>
      <Link to="/" className="inline-flex min-h-11 items-center text-slate-700 underline">
        {t("accounts.login.backHome")}
      </Link>
    </div>
  );
}
