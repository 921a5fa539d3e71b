import { useTranslation } from "~/i18n";
import type { FactLine, FactsView } from "~/schemas/listing-view";
import "virtual:catalogue/listing";

/** One outline icon per kind of fact (24 px grid, drawn with the text colour). */
const ICONS: Record<FactLine["kind"], string> = {
  // A lightning bolt: electricity and water bills.
  bills: "M13 3 5 14h6l-1 7 8-11h-6l1-7Z",
  // A bowl with steam: meals.
  meals: "M4 12h16a8 8 0 0 1-16 0Zm4-4c0-1 1-1 1-2s-1-1-1-2m4 4c0-1 1-1 1-2s-1-1-1-2m4 4c0-1 1-1 1-2s-1-1-1-2",
  // A shower head and drops: the bathroom.
  bathroom: "M4 10a6 6 0 0 1 12 0H4Zm6-6V2m-4 12v1m4-1v2m4-2v1",
  // A bed: beds free.
  beds: "M3 18V7m0 7h18v4M3 11h7a3 3 0 0 1 3 3M14 11h5a2 2 0 0 1 2 2v1M6.5 9.5a1.5 1.5 0 1 0 0-.01",
  // A clock: the curfew.
  curfew: "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Zm0-13v4l3 2",
};

/**
 * The facts students ask first (ADR 051): a line with an icon for each one
 * the owner stated, the house rules as chips, and what is not stated.
 */
export function ListingFacts({ facts }: { facts: FactsView }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="facts-heading">
      <h2 id="facts-heading" className="text-lg font-semibold">
        {t("listing.facts.heading")}
      </h2>
      {facts.lines.length > 0 ? (
        <ul className="mt-2 space-y-2">
          {facts.lines.map((line) => (
            <li key={line.kind} className="flex items-center gap-3 text-slate-900">
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="h-5 w-5 shrink-0 text-brand-700"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.8"
                strokeLinecap="round"
                strokeLinejoin="round"
              >
                <path d={ICONS[line.kind]} />
              </svg>
              {line.text}
            </li>
          ))}
        </ul>
      ) : null}
      {facts.rules.length > 0 ? (
        <ul className="mt-3 flex flex-wrap gap-2" aria-label={t("listing.facts.rules")}>
          {facts.rules.map((rule) => (
            <li key={rule} className="rounded-full bg-slate-100 px-3 py-1 text-sm font-medium text-slate-800">
              {rule}
            </li>
          ))}
        </ul>
      ) : null}
      {facts.notStated ? <p className="mt-3 text-sm text-slate-600">{facts.notStated}</p> : null}
    </section>
  );
}
