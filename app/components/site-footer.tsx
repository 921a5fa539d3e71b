import { Link } from "react-router";
import { useLocalePath, useTranslation } from "~/i18n";
import { LanguageSwitcher } from "./language-switcher";
import { MailIcon } from "./ui/icons";

type SiteFooterProps = {
  siteName: string;
  supportEmail: string;
  signedIn: boolean;
  /** The data saver switch's state and words, written by the root loader (ADR 090). */
  dataSaver?: { on: boolean; label: string; hint: string };
};

export function SiteFooter({ siteName, supportEmail, signedIn, dataSaver }: SiteFooterProps) {
  const { t } = useTranslation();
  const quickLinks = [
    { to: "/browse", label: t("common.footer.browseListings") },
    { to: signedIn ? "/dashboard" : "/login", label: t("common.footer.listProperty") },
    { to: "/about", label: t("common.footer.aboutUs") },
    { to: "/contact", label: t("common.footer.contact") },
  ];
  const supportLinks = [
    { to: "/contact", label: t("common.footer.helpCenter") },
    { to: "/privacy", label: t("common.footer.privacyPolicy") },
    { to: "/terms", label: t("common.footer.termsOfService") },
  ];
  return (
    <footer id="site-footer" className="mt-12 border-t border-slate-200 bg-slate-50">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="text-xl font-bold text-brand-700">{siteName}</p>
          <p className="mt-2 text-sm text-slate-700">{t("common.footer.about")}</p>
        </div>
        <FooterNav id="footer-quick-links" heading={t("common.footer.quickLinks")} links={quickLinks} />
        <FooterNav id="footer-support" heading={t("common.footer.support")} links={supportLinks} />
        {supportEmail ? (
          <div>
            <h2 className="font-semibold text-slate-900">{t("common.footer.contactDetails")}</h2>
            <p className="mt-2">
              <a href={`mailto:${supportEmail}`} className={`${linkClasses} gap-2 break-all`}>
                <MailIcon className="h-5 w-5 shrink-0 text-brand-700" />
                <span>
                  <span className="sr-only">{t("common.footer.emailLabel")}: </span>
                  {supportEmail}
                </span>
              </a>
            </p>
          </div>
        ) : null}
      </div>
      <div className="border-t border-slate-200">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-2">
          <p className="py-2 text-sm text-slate-700">{t("common.footer.copyright", { siteName })}</p>
          {dataSaver ? <DataSaverSwitch {...dataSaver} /> : null}
          <LanguageSwitcher className="text-sm" landmark={false} />
        </div>
      </div>
    </footer>
  );
}

const linkClasses = "inline-flex min-h-11 items-center text-slate-700 hover:text-brand-700 hover:underline";

function FooterNav({ id, heading, links }: { id: string; heading: string; links: { to: string; label: string }[] }) {
  return (
    <nav aria-labelledby={id}>
      <h2 id={id} className="font-semibold text-slate-900">
        {heading}
      </h2>
      <ul className="mt-2">
        {links.map((l) => (
          <li key={l.label}>
            <Link to={l.to} className={linkClasses}>
              {l.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * A plain form post, with or without JavaScript (ADR 090): the route remembers
 * the other choice and sends the reader back to the page (its Referer).
 */
function DataSaverSwitch({ on, label, hint }: { on: boolean; label: string; hint: string }) {
  return (
    <form method="post" action={useLocalePath()("/data-saver")} className="saver">
      <button type="submit" name="saver" value={on ? "off" : "on"}>
        {label}
      </button>
      {hint}
    </form>
  );
}
