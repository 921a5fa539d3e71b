import { Form } from "react-router";
import { signedIn } from "~/auth/guard.server";
import { ConfirmEmailBanner, confirmEmailBannerOf } from "~/components/accounts/confirm-email-banner";
import { Button } from "~/components/ui/button";
import { TabbedLayout } from "~/components/ui/tab-nav";
import { activeLocale, useTranslation } from "~/i18n";
import { LANGUAGE_NAMES, type Locale } from "~/i18n/locales";
import { privatePageMeta } from "~/lib/route-meta";
import { chosenLanguage } from "~/security/language-cookie.server";
import { noStore } from "~/security/no-store.server";
import type { Route } from "./+types/dashboard";
import "virtual:catalogue/accounts";

export const meta: Route.MetaFunction = privatePageMeta({
  title: "accounts.dashboard.metaTitle",
  description: "accounts.dashboard.description",
  path: "/dashboard",
});

/**
 * Never cached anywhere (ADR 016): private, or about signing in. Every route
 * below is for a signed-in account, writes from our own pages only (ADR 025).
 */
export const middleware: Route.MiddlewareFunction[] = [noStore, signedIn.middleware];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await signedIn.user({ request, context });
  // The reader chose this page's language with the switcher (ADR 036), and the account's emails
  // are in another one: offer to send them in the chosen one (a post; the switcher is only a link).
  const chosen = chosenLanguage(request.headers.get("Cookie"));
  const offer = chosen === activeLocale() && chosen !== user.locale ? { current: user.locale, chosen } : null;
  // Until the address is confirmed, every dashboard page says so and offers the link again (ADR 066).
  const confirmEmail = confirmEmailBannerOf(user, request);
  return { name: user.name, isModerator: user.role === "moderator", emailLanguageOffer: offer, confirmEmail };
}

/** The offer to send the account's emails in the language chosen with the switcher. */
function EmailLanguageOffer({ current, chosen }: { current: Locale; chosen: Locale }) {
  const { t } = useTranslation();
  return (
    <Form
      method="post"
      action="/dashboard/settings"
      className="mt-4 flex flex-wrap items-center gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4"
    >
      <p className="flex-1">
        {t("accounts.dashboard.emailLanguage.offer", {
          current: LANGUAGE_NAMES[current],
          chosen: LANGUAGE_NAMES[chosen],
        })}
      </p>
      <input type="hidden" name="intent" value="emailLanguage" />
      <input type="hidden" name="locale" value={chosen} />
      <Button type="submit" variant="secondary">
        {t("accounts.dashboard.emailLanguage.accept", { chosen: LANGUAGE_NAMES[chosen] })}
      </Button>
    </Form>
  );
}

/** The protected shell: a greeting and the Overview / Settings switch. */
export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const name = loaderData.name.trim() || t("accounts.dashboard.fallbackName");
  return (
    <TabbedLayout
      heading={t("accounts.dashboard.welcome", { name })}
      label={t("accounts.dashboard.sections")}
      tabs={[
        // The post and edit dialogs sit over the overview, so it stays the current tab there.
        { to: "/dashboard", label: t("accounts.dashboard.overview"), end: true, alsoUnder: "/dashboard/listings/" },
        { to: "/dashboard/settings", label: t("accounts.dashboard.settings") },
        // Moderators also reach /admin from here.
        ...(loaderData.isModerator ? [{ to: "/admin", label: t("accounts.dashboard.admin") }] : []),
      ]}
    >
      {loaderData.confirmEmail ? (
        <ConfirmEmailBanner {...loaderData.confirmEmail} back="/dashboard" className="mt-4" />
      ) : null}
      {loaderData.emailLanguageOffer ? <EmailLanguageOffer {...loaderData.emailLanguageOffer} /> : null}
    </TabbedLayout>
  );
}
