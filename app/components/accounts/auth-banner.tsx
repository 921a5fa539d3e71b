import { Banner, type BannerVariant } from "~/components/ui/banner";
import { useTranslation } from "~/i18n";
import type { ErrorKind } from "~/lib/error-messages";
import "virtual:catalogue/accounts";

/** After this many failed tries the banner suggests checking everything. */
export const MANY_ATTEMPTS = 3;

const variantFor: Record<ErrorKind, BannerVariant> = {
  network: "network",
  validation: "warning",
  auth: "error",
  database: "error",
  unknown: "error",
};

type AuthErrorBannerProps = { message: string; kind: ErrorKind; attempt: number };

/** The failure banner of the login and sign-up forms, with its retry counter. */
export function AuthErrorBanner({ message, kind, attempt }: AuthErrorBannerProps) {
  const { t } = useTranslation();
  return (
    <Banner variant={variantFor[kind]} title={message}>
      {attempt >= MANY_ATTEMPTS
        ? t("accounts.banner.multipleFailed")
        : attempt > 0
          ? t("accounts.banner.attempt", { count: attempt })
          : null}
    </Banner>
  );
}
