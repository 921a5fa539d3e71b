import { useRouteLoaderData } from "react-router";
import { HomeSearchForm } from "~/components/home-search-form";
import { SiteStats } from "~/components/site-stats";
import { ButtonLink } from "~/components/ui/button";
import { CapIcon, FlagIcon, PhoneIcon, SearchIcon } from "~/components/ui/icons";
import { useTranslation } from "~/i18n";
import { routeMeta, useSite } from "~/lib/route-meta";
import { jsonLdMeta, pageMeta, websiteJsonLd } from "~/lib/seo";
import { cityChoices, universityChoices } from "~/pages/directory-labels.server";
import { siteFigures } from "~/pages/site-figures.server";
import type { RootData } from "~/root";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/home";
import "virtual:catalogue/home";
import { Section } from "~/components/ui/section";

export const meta: Route.MetaFunction = routeMeta((site, { loaderData }) => {
  if (!loaderData) return [];
  return [
    ...pageMeta({
      ...site,
      title: site.t("home.meta.title", site),
      description: site.t("home.meta.description"),
      path: "/",
    }),
    jsonLdMeta(websiteJsonLd(site.siteUrl, site.siteName)),
  ];
});

export async function loader({ context }: Route.LoaderArgs) {
  const { db, counts } = context.get(requestContext);
  // The directory's places in the reader's language; the English names stay the values (docs/i18n.md).
  return { figures: await siteFigures(db, counts), universities: universityChoices(), cities: cityChoices() };
}

const FEATURES = [
  { key: "search", Icon: SearchIcon },
  { key: "free", Icon: CapIcon },
  { key: "direct", Icon: PhoneIcon },
  { key: "report", Icon: FlagIcon },
] as const;

const STEPS = ["pick", "budget", "compare", "call", "visit", "move"] as const;
const TESTIMONIALS = ["moratuwa", "peradeniya", "owner"] as const;

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { siteName } = useSite();
  const listHref = useRouteLoaderData<RootData>("root")?.user ? "/dashboard" : "/login";

  return (
    <>
      <section className="bg-brand-800 text-white">
        <div className="mx-auto max-w-6xl px-4 pb-10 pt-8 sm:pt-14">
          <h1 className="max-w-2xl text-3xl font-bold leading-tight sm:text-4xl">{t("home.hero.title")}</h1>
          <p className="mt-3 max-w-2xl text-lg text-brand-50">{t("home.hero.subtitle")}</p>
          <div className="mt-6">
            <HomeSearchForm universities={loaderData.universities} cities={loaderData.cities} />
          </div>
        </div>
      </section>

      <section aria-labelledby="stats-heading" className="border-b border-slate-200">
        <div className="mx-auto max-w-6xl px-4 py-8">
          <h2 id="stats-heading" className="sr-only">
            {t("home.stats.heading", { siteName })}
          </h2>
          <SiteStats figures={loaderData.figures} />
        </div>
      </section>

      <Section
        id="features-heading"
        look="page"
        className="mx-auto max-w-6xl px-4 py-12"
        heading={t("home.features.heading", { siteName })}
      >
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map(({ key, Icon }) => (
            <li key={key} className="rounded-xl border border-slate-200 p-5">
              <Icon className="h-8 w-8 text-brand-700" />
              <h3 className="mt-3 text-lg font-semibold">{t(`home.features.items.${key}.title`)}</h3>
              <p className="mt-1 text-slate-700">{t(`home.features.items.${key}.text`)}</p>
            </li>
          ))}
        </ul>
      </Section>

      <section aria-labelledby="steps-heading" className="bg-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-12">
          <h2 id="steps-heading" className="text-2xl font-bold">
            {t("home.steps.heading")}
          </h2>
          <ol className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {STEPS.map((key, index) => (
              <li key={key} className="flex gap-4 rounded-xl bg-white p-5 shadow-sm">
                <span
                  aria-hidden="true"
                  className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-700 font-bold text-white"
                >
                  {index + 1}
                </span>
                <div>
                  <h3 className="font-semibold">{t(`home.steps.items.${key}.title`)}</h3>
                  <p className="mt-1 text-slate-700">{t(`home.steps.items.${key}.text`)}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <Section
        id="testimonials-heading"
        look="page"
        className="mx-auto max-w-6xl px-4 py-12"
        heading={t("home.testimonials.heading")}
      >
        <ul className="mt-6 grid gap-4 lg:grid-cols-3">
          {TESTIMONIALS.map((key) => (
            <li key={key}>
              <figure className="h-full rounded-xl border border-slate-200 p-5">
                <blockquote className="text-slate-800">“{t(`home.testimonials.items.${key}.quote`)}”</blockquote>
                <figcaption className="mt-3 text-sm font-medium text-slate-600">
                  {t(`home.testimonials.items.${key}.who`)}
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </Section>

      <section aria-labelledby="cta-heading" className="mx-auto max-w-6xl px-4 pb-4">
        <div className="rounded-2xl bg-brand-50 p-6 text-center sm:p-10">
          <h2 id="cta-heading" className="text-2xl font-bold">
            {t("home.cta.heading")}
          </h2>
          <p className="mt-2 text-slate-700">{t("home.cta.text")}</p>
          <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
            <ButtonLink to="/browse" size="lg">
              {t("home.cta.browse")}
            </ButtonLink>
            <ButtonLink to={listHref} variant="secondary" size="lg">
              {t("home.cta.list")}
            </ButtonLink>
          </div>
        </div>
      </section>
    </>
  );
}
