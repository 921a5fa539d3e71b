import { Form } from "react-router";
import { Banner } from "~/components/ui/banner";
import { Button } from "~/components/ui/button";
import { useTranslation } from "~/i18n";
import "virtual:catalogue/accounts";

/** What the last 'Send the link again' did, carried in the URL so it shows without JavaScript. */
export type ResendNotice = "sent" | "limited" | "unavailable";

/**
 * 'Please confirm your email address' with a 'Send the link again' button: a
 * plain form post, so it works without JavaScript (ADR 066). `back` is where
 * the answer is shown (one of the pages the resend route accepts).
 */
export function ConfirmEmailBanner({
  email,
  notice,
  back,
  className = "",
}: {
  email: string;
  notice: ResendNotice | null;
  back: "/dashboard" | "/dashboard/listings/new";
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className={`space-y-3 ${className}`} data-testid="confirm-email-banner">
      <Banner variant="warning" title={t("accounts.confirmEmail.banner.title")}>
        <p>{t("accounts.confirmEmail.banner.text", { email })}</p>
        <Form method="post" action="/dashboard/confirm-email" className="mt-3">
          <input type="hidden" name="back" value={back} />
          <Button type="submit" variant="secondary">
            {t("accounts.confirmEmail.banner.resend")}
          </Button>
        </Form>
      </Banner>
      {notice === "sent" ? (
        <Banner variant="success" title={t("accounts.confirmEmail.banner.sent", { email })} />
      ) : notice === "limited" ? (
        <Banner variant="error" title={t("accounts.limits.confirmEmail")} />
      ) : notice === "unavailable" ? (
        <Banner variant="error" title={t("common.unavailable")} />
      ) : null}
    </div>
  );
}

/** What a dashboard page's loader hands its banner: nothing once the address is confirmed. */
export function confirmEmailBannerOf(
  user: { email: string; emailConfirmed: boolean },
  request: Request,
): { email: string; notice: ResendNotice | null } | null {
  return user.emailConfirmed ? null : { email: user.email, notice: resendNoticeOf(new URL(request.url)) };
}

/** The resend notice a page's URL carries, if any. */
function resendNoticeOf(url: URL): ResendNotice | null {
  const notice = url.searchParams.get("confirmEmail");
  return notice === "sent" || notice === "limited" || notice === "unavailable" ? notice : null;
}
