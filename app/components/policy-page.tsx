import { childKeys, type MessageKey, useTranslation } from "~/i18n";
import { RichText } from "~/i18n/rich-text";
import "virtual:catalogue/info";

/** A short plain-words policy page (privacy, terms) read from the info catalogue. */
export function PolicyPage({
  area,
  siteName,
  supportEmail,
}: {
  area: "privacy" | "terms";
  siteName: string;
  supportEmail: string;
}) {
  const { t } = useTranslation();
  const vars = { siteName, email: supportEmail };
  // The keys come from walking the catalogue (childKeys), so they exist; their
  // numbered parts are not in the key type (privacy and terms differ in length).
  const sections = childKeys(`info.${area}.sections`).map((i) => {
    const prefix = `info.${area}.sections.${i}`;
    return {
      heading: t(`${prefix}.heading` as MessageKey, vars),
      items: childKeys(`${prefix}.items`).map((j) => t(`${prefix}.items.${j}` as MessageKey, vars)),
    };
  });
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
        <RichText
          message={t(`info.${area}.contact`, vars)}
          tags={{
            mail: (text) => (
              <a href={`mailto:${supportEmail}`} className="font-medium text-brand-700 underline">
                {text}
              </a>
            ),
          }}
        />
      </p>
    </div>
  );
}
