import { SiteStats } from "~/components/site-stats";
import { ButtonLink } from "~/components/ui/button";
import { BoltIcon, ChevronDownIcon, HeartIcon, SparkIcon, UsersIcon } from "~/components/ui/icons";
import { useTranslation } from "~/i18n";
import { cataloguePageMeta, useSite } from "~/lib/route-meta";
import { siteFigures } from "~/pages/site-figures.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/about";
import "virtual:catalogue/info";
import { Section } from "~/components/ui/section";

export const meta: Route.MetaFunction = cataloguePageMeta({
  title: "info.about.meta.title",
  description: "info.about.meta.description",
  path: "/about",
});

export async function loader({ context }: Route.LoaderArgs) {
  const { db, env, counts } = context.get(requestContext);
  return { supportEmail: env.SUPPORT_EMAIL, figures: await siteFigures(db, counts) };
}

const VALUES = [
  { key: "student", Icon: HeartIcon },
  { key: "quick", Icon: BoltIcon },
  { key: "innovation", Icon: SparkIcon },
  { key: "community", Icon: UsersIcon },
] as const;

const FAQ = ["what", "free", "verified", "badges", "landlords", "universities", "support", "report"] as const;

/** What each line of a listing's 'What Bodima checked' panel means (ADR 080). */
const CHECKS = ["phone", "email", "photos", "memberSince", "availability"] as const;

export default function About({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { siteName } = useSite();
  const { supportEmail, figures } = loaderData;
  const vars = { siteName, email: supportEmail, count: figures.universitiesSupported };

  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-3xl font-bold">{t("info.about.heading", vars)}</h1>
      <p className="mt-3 text-lg text-slate-700">{t("info.about.intro", vars)}</p>

      <Section id="mission-heading" look="page" className="mt-10" heading={t("info.about.missionHeading")}>
        <p className="mt-3 text-slate-800">{t("info.about.mission")}</p>
      </Section>

      <Section id="values-heading" look="page" className="mt-10" heading={t("info.about.valuesHeading")}>
        <ul className="mt-4 grid gap-4 sm:grid-cols-2">
          {VALUES.map(({ key, Icon }) => (
            <li key={key} className="rounded-xl border border-slate-200 p-5">
              <Icon className="h-7 w-7 text-brand-700" />
              <h3 className="mt-2 text-lg font-semibold">{t(`info.about.values.${key}.title`)}</h3>
              <p className="mt-1 text-slate-700">{t(`info.about.values.${key}.text`)}</p>
            </li>
          ))}
        </ul>
      </Section>

      <section aria-labelledby="about-stats-heading" className="mt-10 rounded-xl bg-slate-50 p-6">
        <h2 id="about-stats-heading" className="mb-4 text-2xl font-bold">
          {t("info.about.statsHeading", vars)}
        </h2>
        <SiteStats figures={figures} />
      </section>

      <Section id="checks-heading" look="page" className="mt-10" heading={t("info.about.checksHeading")}>
        <p className="mt-3 text-slate-800">{t("info.about.checks.intro", vars)}</p>
        <ul className="mt-3 list-disc space-y-2 pl-5 text-slate-800">
          {CHECKS.map((key) => (
            <li key={key}>{t(`info.about.checks.items.${key}`, vars)}</li>
          ))}
        </ul>
        <p className="mt-3 font-medium text-slate-900">{t("info.about.checks.notMeaning", vars)}</p>
      </Section>

      <Section id="faq-heading" look="page" className="mt-10" heading={t("info.about.faqHeading")}>
        {/* One open at a time: details sharing a name form an exclusive accordion, no JavaScript needed. */}
        <div className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200">
          {FAQ.map((key, index) => (
            <details key={key} name="faq" open={index === 0} className="group">
              <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-4 px-4 py-3 font-semibold [&::-webkit-details-marker]:hidden">
                {t(`info.about.faq.${key}.q`, vars)}
                <ChevronDownIcon className="h-5 w-5 shrink-0 text-slate-600 transition-transform group-open:rotate-180" />
              </summary>
              <p className="px-4 pb-4 text-slate-700">{t(`info.about.faq.${key}.a`, vars)}</p>
            </details>
          ))}
        </div>
      </Section>

      <div className="mt-10 flex flex-col gap-3 sm:flex-row">
        <ButtonLink to="/browse" size="lg">
          {t("info.about.browse")}
        </ButtonLink>
        <ButtonLink to="/contact" variant="secondary" size="lg">
          {t("info.about.contact")}
        </ButtonLink>
      </div>
    </div>
  );
}
