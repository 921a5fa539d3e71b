import { data, Form, Link, useNavigation } from "react-router";
import { getAuth } from "~/auth/auth.server";
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from "~/auth/common-password.server";
import { NewPasswordFields } from "~/components/accounts/new-password-fields";
import { useFormFailure } from "~/components/forms/use-form-failure";
import { Banner } from "~/components/ui/banner";
import { Button } from "~/components/ui/button";
import { type MessageKey, useTranslation } from "~/i18n";
import { friendlyError } from "~/lib/error-messages";
import { privatePageMeta } from "~/lib/route-meta";
import { parseResetPasswordForm, type RESET_FIELDS } from "~/schemas/login";
import { noStore } from "~/security/no-store.server";
import { isSameOrigin } from "~/security/origin.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/reset-password";
import "virtual:catalogue/accounts";
import { readForm } from "~/security/read-form.server";

export const meta: Route.MetaFunction = privatePageMeta({
  title: "accounts.reset.metaTitle",
  description: "accounts.reset.intro",
  path: "/reset-password",
});

/** Never cached anywhere (ADR 016): private, or about signing in. */
export const middleware: Route.MiddlewareFunction[] = [noStore];

const TOKEN_PATTERN = /^[\w-]{8,200}$/;

export function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token: TOKEN_PATTERN.test(token) ? token : "" };
}

type Field = (typeof RESET_FIELDS)[number];
/** What the banner and fields show after a refused try, from the browser's check or the action. */
type Failure = { message: MessageKey; errors: Partial<Record<Field, MessageKey>> };
type ActionResult = { status: "done" } | ({ status: "failed" } & Failure);

export async function action({ request, context }: Route.ActionArgs) {
  const info = context.get(requestContext);
  const form = await readForm(request);
  const fail = (message: MessageKey, status: number, errors: Partial<Record<Field, MessageKey>> = {}) =>
    data({ status: "failed", message, errors } satisfies ActionResult, { status });
  if (!isSameOrigin(request, info.env.siteUrl)) return fail("accounts.errors.database.permission-denied", 403);
  const token = form.get("token");
  if (typeof token !== "string" || !TOKEN_PATTERN.test(token))
    return fail("accounts.errors.auth.invalid-action-code", 400);
  const parsed = parseResetPasswordForm(form);
  if (!parsed.ok) return fail(parsed.first, 400, parsed.errors);
  if (isCommonPassword(parsed.data.password))
    return fail(COMMON_PASSWORD_MESSAGE, 400, { password: COMMON_PASSWORD_MESSAGE });
  try {
    // Also ends every session of the user (revokeSessionsOnPasswordReset).
    await getAuth(info).api.resetPassword({
      body: { token, newPassword: parsed.data.password },
      headers: request.headers,
    });
    return { status: "done" } satisfies ActionResult;
  } catch (error) {
    const friendly = friendlyError(error);
    if (friendly.kind === "unknown") info.log.error({ err: error }, "password reset failed unexpectedly");
    return fail(friendly.kind === "unknown" ? "accounts.errors.unexpected" : friendly.key, 400);
  }
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as ActionResult | undefined;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { failure, focusRef, browserFound } = useFormFailure<Failure>(
    actionData,
    result?.status === "failed" ? result : null,
  );
  const errorText = (field: Field) => (failure?.errors[field] ? t(failure.errors[field]) : undefined);

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const checked = parseResetPasswordForm(new FormData(event.currentTarget));
    if (checked.ok) return;
    event.preventDefault();
    browserFound({ message: checked.first, errors: checked.errors });
  };

  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-3xl font-bold">{t("accounts.reset.heading")}</h1>
      <div ref={focusRef} tabIndex={-1} className="mt-6 scroll-mt-24 empty:hidden">
        {result?.status === "done" ? <Banner variant="success" title={t("accounts.reset.done")} /> : null}
        {failure ? <Banner variant="error" title={t(failure.message)} /> : null}
        {!loaderData.token ? <Banner variant="error" title={t("accounts.reset.missingToken")} /> : null}
      </div>
      {result?.status === "done" || !loaderData.token ? (
        <Link to="/login" className="mt-6 inline-flex min-h-11 items-center font-semibold text-brand-700 underline">
          {t("accounts.reset.loginLink")}
        </Link>
      ) : (
        <>
          <p className="mt-2 text-slate-700">{t("accounts.reset.intro")}</p>
          <Form method="post" noValidate onSubmit={onSubmit} className="mt-6 space-y-5">
            <input type="hidden" name="token" value={loaderData.token} />
            <NewPasswordFields
              ids={{ password: "reset-password", rules: "reset-password-rules", confirm: "reset-confirm" }}
              labels={{ password: t("accounts.reset.password"), confirm: t("accounts.reset.confirmPassword") }}
              errors={{ password: errorText("password"), confirm: errorText("confirmPassword") }}
            />
            <Button type="submit" size="lg" disabled={busy} className="w-full">
              {busy ? t("accounts.reset.submitting") : t("accounts.reset.submit")}
            </Button>
          </Form>
        </>
      )}
    </div>
  );
}
