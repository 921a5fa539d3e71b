import { useEffect, useState } from "react";
import { Link, Outlet, useLocation } from "react-router";
import { signedIn } from "~/auth/guard.server";
import { AdInsightsList } from "~/components/dashboard/ad-insights";
import { MyAdsList } from "~/components/dashboard/my-ads";
import { PhoneAgainBanner } from "~/components/dashboard/phone-again-banner";
import { Banner } from "~/components/ui/banner";
import { ButtonLink, buttonClasses } from "~/components/ui/button";
import { useTranslation } from "~/i18n";
import { localPhone } from "~/lib/phone";
import { dailyCountsOf } from "~/models/listing-daily-counts.server";
import { listOwnerListings } from "~/models/owner-listing-reads.server";
import { MAX_LISTINGS_PER_OWNER } from "~/models/owner-listings.server";
import { ownerPhones } from "~/models/phone-status.server";
import { adInsightsView, adInsightsWords } from "~/pages/ad-insights.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/dashboard._index";
import "virtual:catalogue/dashboard";

const NEW_AD_PATH = "/dashboard/listings/new";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, phones } = context.get(requestContext);
  const user = await signedIn.user({ request, context });
  const listings = await listOwnerListings(db, user.id);
  const ads = listings.map(({ id, slug, title, status, createdAt, daysLeft, views, hiddenReason, heldReasons }) => ({
    id,
    slug,
    title,
    status,
    createdAt,
    daysLeft,
    views,
    hiddenReason,
    heldReasons,
  }));
  // Numbers of live ads whose 180 days of confirmation have passed: asked again (ADR 076).
  const lapsed = phones.enabled ? (await ownerPhones(db, user.id)).lapsed.map(localPhone) : [];
  // Each ad's last 30 days, drawn here so the page carries no chart code (ADR 089).
  const daily = await dailyCountsOf(
    db,
    listings.map((listing) => listing.id),
  );
  const insights = listings.map((listing) => adInsightsView(listing, daily.get(listing.id) ?? []));
  return { ads, limit: MAX_LISTINGS_PER_OWNER, lapsedPhones: lapsed, insights, insightsWords: adInsightsWords() };
}

/** The outcome of a post, edit, delete or renew, carried in the URL so it also shows without JavaScript. */
type Flash = "posted" | "updated" | "deleted" | "renewed" | "confirmed" | "let";
const FLASHES: Flash[] = ["posted", "updated", "deleted", "renewed", "confirmed", "let"];

/** Like the profile banner, the message goes after 3 seconds (a held ad's stays: it has more to read). */
const FLASH_MS = 3000;

/** `?posted=held` / `?updated=held`: saved, but held for review by the trust checks (ADR 082), so not live. */
function useFlash(): { flash: Flash; held: boolean } | null {
  const { search, key } = useLocation();
  const params = new URLSearchParams(search);
  const flash = FLASHES.find((f) => params.has(f)) ?? null;
  const held = flash !== null && params.get(flash) === "held";
  const [hiddenKey, setHiddenKey] = useState<string | null>(null);
  useEffect(() => {
    if (!flash || held) return;
    const timer = setTimeout(() => setHiddenKey(key), FLASH_MS);
    return () => clearTimeout(timer);
  }, [flash, held, key]);
  return hiddenKey === key || !flash ? null : { flash, held };
}

/**
 * My Ads. Also the layout of the post and edit routes: their dialogs open
 * over this list (the Outlet), which reloads after they save.
 */
export default function DashboardOverview({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { ads, limit, lapsedPhones, insights, insightsWords } = loaderData;
  const shown = useFlash();
  const flash = shown?.held ? null : shown?.flash;
  return (
    <section aria-labelledby="my-ads-heading" className="rounded-xl border border-slate-200 p-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="my-ads-heading" tabIndex={-1} className="text-xl font-semibold">
            {t("dashboard.myAds.heading")}
          </h2>
          <p className="mt-1 text-slate-700">{t("dashboard.myAds.adCount", { count: ads.length })}</p>
        </div>
        {ads.length > 0 && ads.length < limit ? (
          <ButtonLink to={NEW_AD_PATH} preventScrollReset>
            {t("dashboard.myAds.postNew")}
          </ButtonLink>
        ) : null}
      </div>
      <div className="mt-4 space-y-3 empty:hidden" aria-live="polite">
        {shown?.held ? (
          <Banner
            variant="warning"
            title={t(shown.flash === "posted" ? "dashboard.myAds.postedHeld" : "dashboard.myAds.updatedHeld")}
            data-testid="listing-held"
          >
            {t("dashboard.myAds.heldText")}
          </Banner>
        ) : null}
        {flash === "posted" ? <Banner variant="success" title={t("dashboard.myAds.postedSuccess")} /> : null}
        {flash === "updated" ? <Banner variant="success" title={t("dashboard.myAds.updated")} /> : null}
        {flash === "deleted" ? <Banner variant="success" title={t("dashboard.myAds.deleted")} /> : null}
        {flash === "renewed" ? <Banner variant="success" title={t("dashboard.myAds.renewed")} /> : null}
        {flash === "confirmed" ? <Banner variant="success" title={t("dashboard.myAds.confirmed")} /> : null}
        {flash === "let" ? <Banner variant="success" title={t("dashboard.myAds.let")} /> : null}
      </div>
      <PhoneAgainBanner lapsed={lapsedPhones} />
      {ads.length >= limit ? (
        <Banner variant="warning" title={t("dashboard.myAds.limitReached")} className="mt-4" />
      ) : null}
      {ads.length === 0 ? (
        <div className="mt-6 rounded-xl border border-dashed border-slate-300 p-6 text-center">
          <p className="text-lg font-semibold">{t("dashboard.myAds.emptyTitle")}</p>
          <p className="mt-1 text-slate-700">{t("dashboard.myAds.emptyText")}</p>
          <ButtonLink to={NEW_AD_PATH} preventScrollReset className="mt-4">
            {t("dashboard.myAds.postFirst")}
          </ButtonLink>
        </div>
      ) : (
        <div className="mt-6">
          <MyAdsList ads={ads} />
        </div>
      )}
      <AdInsightsList ads={insights} words={insightsWords} />
      <Outlet />
    </section>
  );
}

/** Loading happens on the server; when it fails, 'Try Again' loads the page afresh (works without JavaScript too). */
export function ErrorBoundary() {
  const { t } = useTranslation();
  return (
    <section className="rounded-xl border border-slate-200 p-5">
      <Banner variant="error" title={t("dashboard.error.title")}>
        {t("dashboard.error.text")}
      </Banner>
      <Link to="/dashboard" reloadDocument className={buttonClasses("primary", "md", "mt-4")}>
        {t("dashboard.error.retry")}
      </Link>
    </section>
  );
}
