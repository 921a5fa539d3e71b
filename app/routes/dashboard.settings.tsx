import { type ReactNode, useEffect, useState } from "react";
import { data, Form, redirect, redirectDocument, useNavigation } from "react-router";
import { cookieHeaders, getAuth } from "~/auth/auth.server";
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from "~/auth/common-password.server";
import { signedIn } from "~/auth/guard.server";
import { NewPasswordFields } from "~/components/accounts/new-password-fields";
import { PasswordInput } from "~/components/accounts/password-input";
import { Banner } from "~/components/ui/banner";
import { Button } from "~/components/ui/button";
import { FormField, fieldsOf, inputClasses } from "~/components/ui/form-field";
import { PhoneInput } from "~/components/ui/text-input";
import { activeLocale, type MessageKey, useTranslation } from "~/i18n";
import { isLocale, LANGUAGE_NAMES, LOCALES, localePath } from "~/i18n/locales";
import { retryAfterHeaders } from "~/limits/rate-limit.server";
import { refusalOf } from "~/limits/refusal.server";
import { setEmailLanguage, updateProfile } from "~/models/account.server";
import { issueManageLink } from "~/models/alert-manage-links.server";
import { type ChangePasswordField, parseChangePasswordForm } from "~/schemas/change-password";
import { type ProfileField, parseProfileForm } from "~/schemas/profile";
import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PHONE_LENGTH } from "~/schemas/signup";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/dashboard.settings";
import "virtual:catalogue/accounts";
import { Section } from "~/components/ui/section";
import { chosenLanguage } from "~/security/language-cookie.server";
import { readForm } from "~/security/read-form.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await signedIn.user({ request, context });
  // After a password change or signing other devices out, the action redirects here (the
  // old session cookie is gone, so this page must load with the new one).
  const done = new URL(request.url).searchParams.get("done");
  return {
    profile: { name: user.name, phone: user.phone, email: user.email, locale: user.locale },
    // A confirmed address needs no emailed link to its alerts (ADR 058, 066); an unconfirmed one
    // is a stranger's, so its page gets none.
    alertsOpen: user.emailConfirmed,
    done: done === "profile" || done === "password" || done === "sessions" || done === "emailLanguage" ? done : null,
  };
}

type ActionResult =
  | { status: "saved"; savedAt: number }
  | { status: "error"; savedAt: number; errors: Partial<Record<ProfileField, MessageKey>> }
  | {
      status: "password-error";
      savedAt: number;
      message: MessageKey;
      errors: Partial<Record<ChangePasswordField, MessageKey>>;
    }
  | { status: "sessions-error"; savedAt: number };

export async function action({ request, context }: Route.ActionArgs) {
  const { db, log, env } = context.get(requestContext);
  const write = await signedIn.write({ request, context });
  const savedAt = Date.now();
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "password") return changePassword(request, context, write, form);
  if (intent === "sessions") return signOutOtherDevices(request, context, write);
  if (intent === "emailLanguage") return acceptEmailLanguage(context, write, form);
  if (intent === "alerts") return openAlerts(context, write);
  if (!write.ok) {
    return data({ status: "error", savedAt, errors: {} } satisfies ActionResult, { status: 403 });
  }
  // Whatever email is posted is ignored: only name and phone are read.
  const parsed = parseProfileForm(form);
  if (!parsed.ok)
    return data({ status: "error", savedAt, errors: parsed.errors } satisfies ActionResult, { status: 400 });
  try {
    // The schema took only "" (keep the account's) or one of our languages.
    await updateProfile(db, write.user.id, parsed.data);
    // The dashboard follows the account's language unless this browser chose one (ADR 036, 069):
    // a new one opens Settings in it, saying it saved. Absolute, so no basename is put before it.
    const { locale } = parsed.data;
    if (isLocale(locale) && locale !== activeLocale() && !chosenLanguage(request.headers.get("Cookie")))
      return redirectDocument(new URL(localePath(locale, "/dashboard/settings?done=profile"), env.siteUrl).href);
    return { status: "saved", savedAt } satisfies ActionResult;
  } catch (error) {
    log.error({ err: error }, "profile update failed");
    return data({ status: "error", savedAt, errors: {} } satisfies ActionResult, { status: 503 });
  }
}

type Context = Route.ActionArgs["context"];
type Write = Awaited<ReturnType<typeof signedIn.write>>;

/**
 * 'See my alerts': a fresh manage link for the account's own address (ADR 067),
 * made when asked (a post, so no page holds one) and only for a confirmed address.
 */
async function openAlerts(context: Context, write: Write) {
  const savedAt = Date.now();
  if (!write.ok || !write.user.emailConfirmed)
    return data({ status: "error", savedAt, errors: {} } satisfies ActionResult, { status: 403 });
  const token = await issueManageLink(context.get(requestContext).db, write.user.email);
  return redirect(`/alerts/manage/${token}`);
}

/**
 * The dashboard's offer to send emails in the language the reader chose with the switcher
 * (ADR 036): a post from our own pages, for one of our languages; anything else changes nothing.
 */
async function acceptEmailLanguage(context: Context, write: Write, form: FormData) {
  const savedAt = Date.now();
  const locale = form.get("locale");
  if (!write.ok) return data({ status: "error", savedAt, errors: {} } satisfies ActionResult, { status: 403 });
  if (!isLocale(locale))
    return data(
      { status: "error", savedAt, errors: { locale: "accounts.settings.errors.locale" } } satisfies ActionResult,
      { status: 400 },
    );
  await setEmailLanguage(context.get(requestContext).db, write.user.id, locale);
  return redirect("/dashboard/settings?done=emailLanguage");
}

/**
 * "Change password" (ADR 019): the current password is checked by better-auth
 * (each try counts against passwordUser, keyed by account: it is a password
 * guess), the new one meets the sign-up policy and is not a common password;
 * every other session ends and this device gets a new session cookie.
 */
async function changePassword(request: Request, context: Context, write: Write, form: FormData) {
  const info = context.get(requestContext);
  const savedAt = Date.now();
  const fail = (
    message: MessageKey,
    status: number,
    errors: Partial<Record<ChangePasswordField, MessageKey>> = {},
    headers?: HeadersInit,
  ) => data({ status: "password-error", savedAt, message, errors } satisfies ActionResult, { status, headers });
  if (!write.ok) return fail("accounts.errors.database.permission-denied", 403);
  const parsed = parseChangePasswordForm(form);
  if (!parsed.ok) return fail(parsed.first, 400, parsed.errors);
  if (isCommonPassword(parsed.data.password))
    return fail(COMMON_PASSWORD_MESSAGE, 400, { password: COMMON_PASSWORD_MESSAGE });
  const allowed = await info.limiter.consume("passwordUser", { user: write.user.id });
  if (!allowed.ok) {
    const refused = refusalOf(allowed, "accounts.limits.passwordUser");
    return fail(refused.message, refused.status, {}, retryAfterHeaders(allowed));
  }
  try {
    const { headers } = await getAuth(info).api.changePassword({
      body: {
        currentPassword: parsed.data.currentPassword,
        newPassword: parsed.data.password,
        revokeOtherSessions: true,
      },
      headers: request.headers,
      returnHeaders: true,
    });
    return redirect("/dashboard/settings?done=password", { headers: cookieHeaders(headers) });
  } catch (error) {
    const code = (error as { body?: { code?: unknown } } | null)?.body?.code;
    if (code === "INVALID_PASSWORD") {
      return fail("accounts.settings.password.wrongCurrent", 400, {
        currentPassword: "accounts.settings.password.wrongCurrent",
      });
    }
    info.log.error({ err: error }, "password change failed");
    return fail("accounts.errors.unexpected", 503);
  }
}

/** "Sign out of all other devices": every session of this account but this one ends. */
async function signOutOtherDevices(request: Request, context: Context, write: Write) {
  const info = context.get(requestContext);
  const savedAt = Date.now();
  if (!write.ok) return data({ status: "sessions-error", savedAt } satisfies ActionResult, { status: 403 });
  try {
    await getAuth(info).api.revokeOtherSessions({ headers: request.headers });
    return redirect("/dashboard/settings?done=sessions");
  } catch (error) {
    info.log.error({ err: error }, "could not sign out other devices");
    return data({ status: "sessions-error", savedAt } satisfies ActionResult, { status: 503 });
  }
}

/** The banner shows for 3 seconds. */
const BANNER_MS = 3000;

export default function DashboardSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as ActionResult | undefined;
  const { profile } = loaderData;
  const navigation = useNavigation();
  const [name, setName] = useState(profile.name);
  const [hiddenAt, setHiddenAt] = useState<number | null>(null);

  useEffect(() => {
    if (!result) return;
    const timer = setTimeout(() => setHiddenAt(result.savedAt), BANNER_MS);
    return () => clearTimeout(timer);
  }, [result]);
  // Without JavaScript there is no timer: the banner stays until the next page.
  const banner = result && hiddenAt !== result.savedAt ? result : null;
  const errors = result?.status === "error" ? result.errors : {};
  const saving = navigation.state === "submitting" && !navigation.formData?.get("intent");
  const field = fieldsOf<ProfileField | "email">({
    idPrefix: "settings",
    label: (name) => t(`accounts.settings.${name === "locale" ? "language" : name}`),
    error: (name) => (name !== "email" && errors[name] ? t(errors[name]) : undefined),
    requiredLabel: t("common.form.required"),
  });
  const passwordFailure = result?.status === "password-error" ? result : null;
  const passwordError = (field: ChangePasswordField) =>
    passwordFailure?.errors[field] ? t(passwordFailure.errors[field]) : undefined;

  return (
    <div className="space-y-6">
      <Section id="settings-heading" look="card" className="max-w-xl" heading={t("accounts.settings.heading")}>
        <div className="mt-4 empty:hidden">
          {loaderData.done === "emailLanguage" && !banner ? (
            <Banner variant="success" title={t("accounts.settings.savedTitle")}>
              {t("accounts.dashboard.emailLanguage.saved", { chosen: LANGUAGE_NAMES[profile.locale] })}
            </Banner>
          ) : null}
          {banner?.status === "saved" || (loaderData.done === "profile" && !banner) ? (
            <Banner variant="success" title={t("accounts.settings.savedTitle")}>
              {t("accounts.settings.savedText")}
            </Banner>
          ) : null}
          {banner?.status === "error" ? (
            <Banner variant="error" title={t("accounts.settings.errorTitle")}>
              {t("accounts.settings.errorText")}
            </Banner>
          ) : null}
        </div>
        <Form method="post" noValidate className="mt-4 space-y-5">
          <FormField {...field("name", { required: true })}>
            {(control) => (
              <input
                {...control}
                type="text"
                autoComplete="name"
                maxLength={NAME_MAX_LENGTH}
                value={name}
                onChange={(event) => setName(event.currentTarget.value)}
                className={inputClasses}
              />
            )}
          </FormField>
          <FormField {...field("phone")}>
            {(control) => <PhoneInput control={control} maxLength={PHONE_LENGTH} defaultValue={profile.phone} />}
          </FormField>
          <FormField {...field("email", { hint: t("accounts.settings.emailNote") })}>
            {(control) => (
              <input
                {...control}
                type="email"
                readOnly
                value={profile.email}
                className={`${inputClasses} bg-slate-100`}
              />
            )}
          </FormField>
          <FormField {...field("locale", { hint: t("accounts.settings.languageHint") })}>
            {(control) => (
              <select {...control} defaultValue={profile.locale} className={inputClasses}>
                {LOCALES.map((locale) => (
                  <option key={locale} value={locale} lang={locale}>
                    {LANGUAGE_NAMES[locale]}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <Button type="submit" disabled={saving || name.trim() === ""}>
            {saving ? t("accounts.settings.saving") : t("accounts.settings.save")}
          </Button>
        </Form>
      </Section>
      <IntentCard
        intent="password"
        done={loaderData.done === "password" && !result}
        error={passwordFailure ? t(passwordFailure.message) : null}
        fields={
          <>
            <FormField
              id="settings-current-password"
              name="currentPassword"
              label={t("accounts.settings.password.current")}
              error={passwordError("currentPassword")}
            >
              {(control) => (
                <PasswordInput {...control} autoComplete="current-password" maxLength={PASSWORD_MAX_LENGTH} />
              )}
            </FormField>
            <NewPasswordFields
              ids={{
                password: "settings-new-password",
                rules: "settings-password-rules",
                confirm: "settings-confirm-password",
              }}
              labels={{
                password: t("accounts.settings.password.new"),
                confirm: t("accounts.settings.password.confirm"),
              }}
              errors={{ password: passwordError("password"), confirm: passwordError("confirmPassword") }}
            />
          </>
        }
      />
      <IntentCard
        intent="sessions"
        done={loaderData.done === "sessions" && !result}
        error={result?.status === "sessions-error" ? "" : null}
      />
      <Section id="alerts-heading" look="card" className="max-w-xl" heading={t("accounts.settings.alerts.heading")}>
        <p className="mt-1 text-slate-700">{t("accounts.settings.alerts.intro", { email: profile.email })}</p>
        {loaderData.alertsOpen ? (
          <Form method="post" className="mt-3">
            <input type="hidden" name="intent" value="alerts" />
            <Button type="submit" variant="secondary">
              {t("accounts.settings.alerts.link")}
            </Button>
          </Form>
        ) : (
          <p className="mt-3 text-slate-700" data-testid="alerts-confirm-first">
            {t("accounts.settings.alerts.confirmFirst")}
          </p>
        )}
      </Section>
    </div>
  );
}

/** What the card says once its form has done its work. */
const DONE_KEYS = {
  password: { title: "accounts.settings.password.changedTitle", text: "accounts.settings.password.changedText" },
  sessions: { title: "accounts.settings.sessions.doneTitle", text: "accounts.settings.sessions.doneText" },
} as const;

/**
 * A settings card whose one form posts `intent`: its intro, the banner of its
 * last answer (`done`, or `error`: the failure's text, "" for the title alone),
 * the fields (none: a single button) and the button.
 */
function IntentCard({
  intent,
  done,
  error,
  fields,
}: {
  intent: "password" | "sessions";
  done: boolean;
  error: string | null;
  fields?: ReactNode;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <Section
      id={`${intent}-heading`}
      look="card"
      className="max-w-xl"
      heading={t(`accounts.settings.${intent}.heading`)}
    >
      <p className="mt-1 text-slate-700">{t(`accounts.settings.${intent}.intro`)}</p>
      <div className="mt-4 empty:hidden">
        {done ? (
          <Banner variant="success" title={t(DONE_KEYS[intent].title)}>
            {t(DONE_KEYS[intent].text)}
          </Banner>
        ) : null}
        {error !== null ? (
          <Banner variant="error" title={t(`accounts.settings.${intent}.errorTitle`)}>
            {error || undefined}
          </Banner>
        ) : null}
      </div>
      <Form method="post" noValidate={fields ? true : undefined} className={fields ? "mt-4 space-y-5" : "mt-4"}>
        <input type="hidden" name="intent" value={intent} />
        {fields}
        <Button type="submit" variant={fields ? undefined : "secondary"} disabled={busy}>
          {busy ? t(`accounts.settings.${intent}.submitting`) : t(`accounts.settings.${intent}.submit`)}
        </Button>
      </Form>
    </Section>
  );
}
