import { data, Form, Link } from "react-router";
import { getAuth } from "~/auth/auth.server";
import { Banner } from "~/components/ui/banner";
import { Button, buttonClasses } from "~/components/ui/button";
import { useTranslation } from "~/i18n";
import { privatePageMeta } from "~/lib/route-meta";
import { noStore } from "~/security/no-store.server";
import { isSameOrigin } from "~/security/origin.server";
import { readForm } from "~/security/read-form.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/confirm-email";
import "virtual:catalogue/accounts";

// The sign-up confirmation email's link (ADR 066). Opening it changes nothing:
// mail scanners open links, and one that confirmed an address typed in by a
// stranger would hand that stranger the address. Its button does, from this
// page only, whoever is (or is not) signed in here.

export const meta: Route.MetaFunction = privatePageMeta({
  title: "accounts.confirmEmail.metaTitle",
  description: "accounts.confirmEmail.intro",
  path: "/confirm-email",
});

/** Never cached anywhere: a personal link. */
export const middleware: Route.MiddlewareFunction[] = [noStore];

/** better-auth's confirmation token: a signed JWT (three base64url parts). */
const TOKEN_PATTERN = /^[\w-]+\.[\w-]+\.[\w-]+$/;
const validToken = (token: unknown): token is string =>
  typeof token === "string" && token.length <= 2000 && TOKEN_PATTERN.test(token);

type Outcome = "done" | "expired" | "invalid" | "origin";

export function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { env } = context.get(requestContext);
  return { token: validToken(token) ? token : "", siteName: env.SITE_NAME };
}

export async function action({ request, context }: Route.ActionArgs) {
  const info = context.get(requestContext);
  const answer = (outcome: Outcome, status = 200) => data({ outcome }, { status });
  if (!isSameOrigin(request, info.env.siteUrl)) return answer("origin", 403);
  const token = (await readForm(request)).get("token");
  if (!validToken(token)) return answer("invalid", 400);
  try {
    await getAuth(info).api.verifyEmail({ query: { token } });
    return answer("done");
  } catch (error) {
    const code = (error as { body?: { code?: unknown } } | null)?.body?.code;
    if (code === "TOKEN_EXPIRED") return answer("expired", 400);
    if (code === "INVALID_TOKEN" || code === "USER_NOT_FOUND") return answer("invalid", 400);
    info.log.error({ err: error }, "address confirmation failed unexpectedly");
    return answer("invalid", 400);
  }
}

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const outcome = actionData?.outcome ?? (loaderData.token ? null : "invalid");
  const { siteName } = loaderData;
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-3xl font-bold">{t("accounts.confirmEmail.heading")}</h1>
      {outcome === "done" ? (
        <>
          <Banner
            variant="success"
            title={t("accounts.confirmEmail.done")}
            className="mt-6"
            data-testid="email-confirmed"
          />
          <Link to="/dashboard" className={buttonClasses("primary", "lg", "mt-6")}>
            {t("accounts.confirmEmail.dashboardLink")}
          </Link>
        </>
      ) : outcome ? (
        <Banner
          variant="error"
          className="mt-6"
          data-testid="email-confirm-problem"
          title={t(
            outcome === "expired"
              ? "accounts.confirmEmail.expired"
              : outcome === "origin"
                ? "accounts.confirmEmail.origin"
                : "accounts.confirmEmail.invalid",
            { siteName },
          )}
        />
      ) : (
        <Form method="post" className="mt-6">
          <p className="text-slate-700">{t("accounts.confirmEmail.intro", { siteName })}</p>
          <input type="hidden" name="token" value={loaderData.token} />
          <Button type="submit" size="lg" className="mt-6 w-full">
            {t("accounts.confirmEmail.button")}
          </Button>
        </Form>
      )}
    </div>
  );
}
