import { data } from "react-router";
import { listAds } from "~/api/listings.server";
import { OldListingCard, toOldCard } from "~/components/old-listing-card";
import { Banner } from "~/components/ui/banner";
import { useTranslation } from "~/i18n";
import { routeMeta } from "~/lib/route-meta";
import { pageMeta } from "~/lib/seo";
import { filtersToSearchParams } from "~/schemas/browse-filters";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/old-browse";
import "virtual:catalogue/old-browse";

/** The old browse page shows 20 per page. */
const OLD_BROWSE_PAGE_SIZE = 20;

export const meta: Route.MetaFunction = routeMeta((site, { loaderData }) =>
  loaderData
    ? pageMeta({
        ...site,
        title: `${site.t("oldBrowse.title")} | ${site.siteName}`,
        description: site.t("oldBrowse.description"),
        path: "/old-browse",
        // The same listings as /browse; search engines should index that one.
        noindex: true,
      })
    : [],
);

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, phones, counts } = context.get(requestContext);
  const params = new URL(request.url).searchParams;
  // The page asks the list API's code for 20 at a time, as the old page asked /getAdsForSEO.
  params.set("limit", String(OLD_BROWSE_PAGE_SIZE));
  const result = await listAds(db, params, {}, phones.enabled, counts);
  if (!result.ok) {
    return data({ ok: false as const, error: result.body }, { status: 400 });
  }
  const { ads, pagination } = result.body;
  const href = (page: number) => {
    const query = filtersToSearchParams(result.query.filters, page).toString();
    return query ? `/old-browse?${query}` : "/old-browse";
  };
  return {
    ok: true as const,
    ads: ads.map(toOldCard),
    pagination,
    prevHref: pagination.hasPrev ? href(pagination.page - 1) : null,
    nextHref: pagination.hasNext ? href(pagination.page + 1) : null,
  };
}

const linkClasses =
  "inline-flex min-h-11 items-center rounded-lg border border-slate-300 bg-white px-4 py-2 font-semibold text-slate-900 hover:bg-slate-50";

export default function OldBrowse({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-3xl px-4 py-6 sm:py-8">
      <h1 className="text-2xl font-bold">{t("oldBrowse.heading")}</h1>
      <p className="mt-1">
        <a href="/browse" className="font-medium text-brand-700 underline underline-offset-2">
          {t("oldBrowse.newView")}
        </a>
      </p>

      {loaderData.ok ? (
        <>
          <p className="mt-4 text-slate-700">
            <span className="font-semibold text-slate-900">
              {t("oldBrowse.found", { count: loaderData.pagination.total })}
            </span>
            {loaderData.pagination.totalPages > 0 ? (
              <>
                {" · "}
                {t("oldBrowse.pageOf", {
                  page: loaderData.pagination.page,
                  totalPages: loaderData.pagination.totalPages,
                })}
              </>
            ) : null}
          </p>

          {loaderData.ads.length > 0 ? (
            <ul className="mt-4 space-y-3">
              {loaderData.ads.map((ad) => (
                <li key={ad.id}>
                  <OldListingCard ad={ad} />
                </li>
              ))}
            </ul>
          ) : (
            <div className="mt-8 rounded-lg border border-dashed border-slate-300 p-8 text-center">
              <h2 className="text-lg font-semibold">{t("oldBrowse.emptyTitle")}</h2>
              <p className="mt-2 text-slate-700">{t("oldBrowse.emptyText")}</p>
            </div>
          )}

          {loaderData.prevHref || loaderData.nextHref ? (
            <nav aria-label={t("oldBrowse.pagination")} className="mt-6 flex gap-3">
              {loaderData.prevHref ? (
                <a
                  href={loaderData.prevHref}
                  rel="prev"
                  aria-label={t("oldBrowse.previousLabel")}
                  className={linkClasses}
                >
                  <span aria-hidden="true">←&nbsp;</span>
                  {t("oldBrowse.previous")}
                </a>
              ) : null}
              {loaderData.nextHref ? (
                <a
                  href={loaderData.nextHref}
                  rel="next"
                  aria-label={t("oldBrowse.nextLabel")}
                  className={`${linkClasses} ml-auto`}
                >
                  {t("oldBrowse.next")}
                  <span aria-hidden="true">&nbsp;→</span>
                </a>
              ) : null}
            </nav>
          ) : null}
        </>
      ) : (
        <Banner variant="error" title={t("oldBrowse.invalidTitle")} className="mt-6">
          <ul className="list-disc pl-5">
            {(loaderData.error.details ?? [{ param: "", message: loaderData.error.error }]).map((d) => (
              <li key={`${d.param}-${d.message}`}>{d.message}</li>
            ))}
          </ul>
          <a href="/old-browse" className="mt-2 inline-block font-semibold underline underline-offset-2">
            {t("oldBrowse.showAll")}
          </a>
        </Banner>
      )}
    </div>
  );
}
