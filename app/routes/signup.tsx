import { useEffect } from "react";
import { data, Form, Link, redirect, type ShouldRevalidateFunction, useNavigate, useNavigation } from "react-router";
import { cookieHeaders, getAuth, getSessionUser } from "~/auth/auth.server";
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from "~/auth/common-password.server";
import { AuthErrorBanner } from "~/components/accounts/auth-banner";
import { NewPasswordFields } from "~/components/accounts/new-password-fields";
import { HoneypotField } from "~/components/forms/honeypot-field";
import { useEnhanced } from "~/components/forms/use-enhanced";
import { useFormFailure } from "~/components/forms/use-form-failure";
import { Banner } from "~/components/ui/banner";
import { Button } from "~/components/ui/button";
import { FormField, fieldsOf } from "~/components/ui/form-field";
import { EmailInput, NameInput, PhoneInput } from "~/components/ui/text-input";
import { type MessageKey, useTranslation } from "~/i18n";
import { RichText } from "~/i18n/rich-text";
import { type ErrorKind, friendlyError } from "~/lib/error-messages";
import { nextAttempt } from "~/lib/form-attempt";
import { privatePageMeta } from "~/lib/route-meta";
import { retryAfterHeaders } from "~/limits/rate-limit.server";
import { refusalHeaders, refusalOf } from "~/limits/refusal.server";
import { isHoneypotFilled } from "~/schemas/honeypot";
import {
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PHONE_LENGTH,
  parseSignupForm,
  type SignupErrors,
  type SignupField,
} from "~/schemas/signup";
import { noStore } from "~/security/no-store.server";
import { isSameOrigin } from "~/security/origin.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/signup";
import "virtual:catalogue/accounts";
import { readForm } from "~/security/read-form.server";

export const meta: Route.MetaFunction = privatePageMeta({
  title: "accounts.signup.metaTitle",
  description: "accounts.signup.metaDescription",
  path: "/signup",
});

/** Never cached anywhere (ADR 016): private, or about signing in. */
export const middleware: Route.MiddlewareFunction[] = [noStore];

export const headers: Route.HeadersFunction = refusalHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await getSessionUser(request, context)) throw redirect("/dashboard");
  return null;
}

type Values = { name: string; email: string; phone: string };
type ActionResult =
  | { status: "success" }
  | { status: "failed"; message: MessageKey; kind: ErrorKind; attempt: number; errors: SignupErrors; values: Values };

/** What the banner and fields show after a refused try, from the browser's check or the action. */
type Failure = { message: MessageKey; kind: ErrorKind; errors: SignupErrors };

export async function action({ request, context }: Route.ActionArgs) {
  const info = context.get(requestContext);
  const form = await readForm(request);
  const attempt = nextAttempt(form);
  const parsed = parseSignupForm(form);
  const values: Values = {
    name: parsed.values.name.slice(0, NAME_MAX_LENGTH),
    email: parsed.values.email.slice(0, EMAIL_MAX_LENGTH),
    phone: parsed.values.phone.slice(0, PHONE_LENGTH),
  };
  const fail = (
    message: MessageKey,
    kind: ErrorKind,
    status: number,
    errors: SignupErrors = {},
    headers?: HeadersInit,
  ) => data({ status: "failed", message, kind, attempt, errors, values } satisfies ActionResult, { status, headers });

  if (!isSameOrigin(request, info.env.siteUrl)) return fail("accounts.errors.database.permission-denied", "auth", 403);
  if (!parsed.ok) return fail(parsed.first, "validation", 400, parsed.errors);
  const allowed = await info.limiter.consume("signupIp", { ip: info.clientIp });
  if (!allowed.ok) {
    const refused = refusalOf(allowed, "accounts.limits.signupIp");
    return fail(refused.message, "auth", refused.status, {}, retryAfterHeaders(allowed));
  }
  if (isCommonPassword(parsed.data.password)) {
    return fail(COMMON_PASSWORD_MESSAGE, "validation", 400, { password: COMMON_PASSWORD_MESSAGE });
  }
  if (isHoneypotFilled(form)) {
    // Looks like a bot: the answer of any failed sign-up, and no account.
    info.log.info("sign-up honeypot filled; no account created");
    return fail("accounts.signup.failed", "unknown", 400);
  }
  const { name, email, phone, password } = parsed.data;
  try {
    const { headers } = await getAuth(info).api.signUpEmail({
      // The account speaks the language it was made in (ADR 069); Settings changes it.
      body: { name, email, phone, password, rememberMe: true, locale: info.locale },
      headers: request.headers,
      returnHeaders: true,
    });
    const init = { headers: cookieHeaders(headers) };
    if (form.get("enhanced") !== "1") return redirect("/dashboard", init);
    return data({ status: "success" } satisfies ActionResult, init);
  } catch (error) {
    const friendly = friendlyError(error);
    if (friendly.kind === "unknown") info.log.error({ err: error }, "sign-up failed unexpectedly");
    const status = friendly.key.endsWith("email-already-in-use") ? 409 : friendly.kind === "network" ? 503 : 400;
    return fail(friendly.kind === "unknown" ? "accounts.signup.failed" : friendly.key, friendly.kind, status);
  }
}

/**
 * After a successful sign-up this page's loader would see the new session and
 * redirect at once, so the success message would only flash: the page is not
 * revalidated then, and the timer below goes on after the spec's 1.5 seconds.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  (actionResult as ActionResult | undefined)?.status === "success" ? false : defaultShouldRevalidate;

/** The success message shows for 1.5 seconds before the dashboard. */
const REDIRECT_DELAY_MS = 1500;

/** The ids of the fields that are not a FormField (those are `signup-<name>`, from fieldsOf). */
const FIELD_IDS = { password: "signup-password", confirmPassword: "signup-confirm", terms: "signup-terms" } as const;

export default function Signup({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as ActionResult | undefined;
  const navigate = useNavigate();
  const navigation = useNavigation();
  const enhanced = useEnhanced();
  const busy = navigation.state === "submitting";
  const failed = result?.status === "failed" ? result : null;
  const { failure, attempt, focusRef, browserFound } = useFormFailure<Failure>(actionData, failed);
  const errors: SignupErrors = failure?.errors ?? {};
  const values: Values = failed?.values ?? { name: "", email: "", phone: "" };
  useEffect(() => {
    if (result?.status !== "success") return;
    const timer = setTimeout(() => navigate("/dashboard", { replace: true }), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [result, navigate]);

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const checked = parseSignupForm(new FormData(event.currentTarget));
    if (checked.ok) return;
    event.preventDefault();
    browserFound({ message: checked.first, kind: "validation", errors: checked.errors });
  };

  const errorText = (field: SignupField) => (errors[field] ? t(errors[field]) : undefined);
  const requiredLabel = t("common.form.required");
  const field = fieldsOf<"name" | "email" | "phone">({
    idPrefix: "signup",
    label: (name) => t(`accounts.signup.${name}`),
    error: errorText,
    requiredLabel,
  });

  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-3xl font-bold">{t("accounts.signup.heading")}</h1>
      <p className="mt-2 text-slate-700">{t("accounts.signup.intro")}</p>

      <div ref={focusRef} tabIndex={-1} className="mt-6 scroll-mt-24 empty:hidden">
        {result?.status === "success" ? <Banner variant="success" title={t("accounts.signup.success")} /> : null}
        {failure ? <AuthErrorBanner message={t(failure.message)} kind={failure.kind} attempt={attempt} /> : null}
      </div>

      <Form method="post" noValidate onSubmit={onSubmit} className="mt-6 space-y-5">
        <input type="hidden" name="attempt" value={attempt} />
        {enhanced ? <input type="hidden" name="enhanced" value="1" /> : null}
        <FormField {...field("name", { required: true })}>
          {(control) => <NameInput control={control} maxLength={NAME_MAX_LENGTH} defaultValue={values.name} />}
        </FormField>
        <FormField {...field("email", { required: true })}>
          {(control) => <EmailInput control={control} maxLength={EMAIL_MAX_LENGTH} defaultValue={values.email} />}
        </FormField>
        <FormField {...field("phone", { hint: t("accounts.signup.phoneHint"), required: true })}>
          {(control) => <PhoneInput control={control} maxLength={PHONE_LENGTH} defaultValue={values.phone} />}
        </FormField>
        <NewPasswordFields
          ids={{ password: FIELD_IDS.password, rules: "signup-password-rules", confirm: FIELD_IDS.confirmPassword }}
          labels={{ password: t("accounts.signup.password"), confirm: t("accounts.signup.confirmPassword") }}
          errors={{ password: errorText("password"), confirm: errorText("confirmPassword") }}
          requiredLabel={requiredLabel}
        />
        <div>
          <label className="flex min-h-11 items-start gap-3">
            <input
              id={FIELD_IDS.terms}
              type="checkbox"
              name="terms"
              aria-invalid={errors.terms ? true : undefined}
              aria-describedby={errors.terms ? "signup-terms-error" : undefined}
              className="mt-1 h-5 w-5 shrink-0 accent-brand-700"
            />
            <span>
              {/* One sentence with its two links, so each language keeps its own word order. */}
              <RichText
                message={t("accounts.signup.agree")}
                tags={{
                  terms: (text) => (
                    <Link to="/terms" className="font-medium text-brand-700 underline">
                      {text}
                    </Link>
                  ),
                  privacy: (text) => (
                    <Link to="/privacy" className="font-medium text-brand-700 underline">
                      {text}
                    </Link>
                  ),
                }}
              />
            </span>
          </label>
          {errors.terms ? (
            <p id="signup-terms-error" className="mt-1 text-sm font-medium text-red-700">
              {t(errors.terms)}
            </p>
          ) : null}
        </div>
        <HoneypotField id="signup-website" label={t("accounts.signup.honeypot")} />
        <Button type="submit" size="lg" disabled={busy || result?.status === "success"} className="w-full">
          {busy ? t("accounts.signup.submitting") : t("accounts.signup.submit")}
        </Button>
      </Form>

      <p className="mt-8 text-slate-700">
        {t("accounts.signup.haveAccount")}{" "}
        <Link to="/login" className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline">
          {t("accounts.signup.loginLink")}
        </Link>
      </p>
    </div>
  );
}
