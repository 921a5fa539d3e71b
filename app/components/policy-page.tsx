import { Trans } from "react-i18next";
import { useTranslation } from "~/i18n";

type PolicySection = { heading: string; items: string[] };

/** A short plain-words policy page (privacy, terms) read from the info catalogue. */
export function PolicyPage({ area, siteName, supportEmail }: { area: "privacy" | "terms"; siteName: string; supportEmail: string }) {
  const { t } = useTranslation();
  const vars = { siteName, email: supportEmail };
  const sections = t(`info.${area}.sections`, { ...vars, returnObjects: true }) as unknown as PolicySection[];
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold">{t(`info.${area}.heading`)}</h1>
      <p className="mt-3 text-lg text-slate-700">{t(`info.${area}.intro`, vars)}</p>
      {sections.map((section, index) => (
        <section key={section.heading} aria-labelledby={`${area}-section-${index}`} className="mt-8">
          <h2 id={`${area}-section-${index}`} className="text-xl font-semibold">
            {section.heading}
          </h2>
          <ul className="mt-3 list-disc space-y-2 pl-5 text-slate-800">
            {section.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </section>
      ))}
      <p className="mt-10 rounded-xl bg-slate-50 p-5 text-slate-800">
        <Trans
          i18nKey={`info.${area}.contact`}
          values={vars}
          components={{ mail: <a href={`mailto:${supportEmail}`} className="font-medium text-brand-700 underline" /> }}
        />
      </p>
    </div>
  );
}
