import { data } from "react-router";
import { Comparison, NothingSaved } from "~/components/shortlist/comparison";
import { ButtonLink } from "~/components/ui/button";
import { useTranslation } from "~/i18n";
import { findListingsByIds } from "~/models/listing.server";
import { sharedShortlistIds } from "~/models/shortlist.server";
import { sharedShortlistMeta, toShortlistRow } from "~/pages/shortlist-page.server";
import { noStore } from "~/security/no-store.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/shared-shortlist";
import "virtual:catalogue/shortlist";

// A shortlist someone shared (ADR 055): read-only, as its owner keeps
// it now. The link's code is all it takes, so the page is never cached or
// indexed; a code that was never, or is no longer, shared answers 404.
export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

// The owner may change or stop sharing the list at any moment: nothing keeps a copy.
export const middleware: Route.MiddlewareFunction[] = [noStore];

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, env, phones, dataSaver } = context.get(requestContext);
  const meta = sharedShortlistMeta(env.SITE_NAME);
  const ids = await sharedShortlistIds(db, params.code);
  if (!ids) return data({ rows: null, meta }, { status: 404 });
  const listings = await findListingsByIds(db, ids);
  return { rows: listings.map((listing) => toShortlistRow(listing, phones.enabled, dataSaver)), meta };
}

export default function SharedShortlistPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { rows } = loaderData;
  if (!rows) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-4">
        <NothingSaved
          level="h1"
          title={t("shortlist.shared.goneTitle")}
          text={t("shortlist.shared.goneText")}
          action={t("shortlist.shared.browse")}
        />
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-6xl px-4 py-6 lg:py-8">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t("shortlist.shared.heading")}</h1>
      <p className="mt-1 text-slate-700">{t("shortlist.shared.intro")}</p>
      {rows.length === 0 ? (
        <p className="mt-6 text-slate-700">{t("shortlist.shared.empty")}</p>
      ) : (
        <>
          <p className="mt-4 font-semibold" data-testid="shortlist-count">
            {t("shortlist.count", { count: rows.length })}
          </p>
          <Comparison rows={rows} />
        </>
      )}
      <p className="mt-8 text-slate-700">{t("shortlist.shared.own")}</p>
      <ButtonLink to="/browse" variant="secondary" className="mt-3">
        {t("shortlist.shared.browse")}
      </ButtonLink>
    </div>
  );
}
