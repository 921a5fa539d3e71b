import type { AdInsightsView, AdInsightsWords, InsightSeriesName } from "~/schemas/ad-insights-view";

/** The charts' units, as app/pages/ad-insights.server.ts draws them. */
const VIEW_BOX = "0 0 300 40";

/** Each figure its own colour; its label and total say what it is, so colour is never the only cue. */
const FILLS: Record<InsightSeriesName, string> = {
  views: "fill-brand-600",
  saves: "fill-amber-600",
  calls: "fill-green-700",
  messages: "fill-sky-700",
};

/**
 * One ad's last 30 days (ADR 089): four small bar charts drawn on the server,
 * then the same figures as a table inside <details> for screen readers.
 * No script of its own: the words and shapes all come from the loader.
 */
function AdInsights({ ad }: { ad: AdInsightsView }) {
  return (
    <li
      data-testid="ad-insights"
      data-insights-for={ad.listingId}
      className="rounded-xl border border-slate-200 p-3 sm:p-4"
    >
      <h3 className="font-semibold break-words">{ad.title}</h3>
      <p className="text-sm text-slate-700">{ad.period}</p>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        {ad.series.map((series) => (
          <div key={series.name} data-series={series.name}>
            <p className="flex flex-wrap justify-between gap-x-3 text-sm">
              <span>
                {series.label}: <strong data-testid="series-total">{series.total}</strong>
              </span>
              <span className="text-slate-600">{series.mostLine}</span>
            </p>
            <svg
              viewBox={VIEW_BOX}
              preserveAspectRatio="none"
              aria-hidden="true"
              className="mt-1 h-10 w-full border-b border-slate-400 bg-slate-50"
            >
              {series.bars.map((bar) => (
                <rect key={bar.x} {...bar} className={FILLS[series.name]} />
              ))}
            </svg>
          </div>
        ))}
      </div>
      <details className="mt-3 text-sm">
        <summary className="inline-flex min-h-11 cursor-pointer items-center font-medium text-brand-700">
          {ad.table.summary}
        </summary>
        <div className="mt-2 overflow-x-auto">
          {/* Small type and tight cells: five columns fit a 360 px phone; a longer word scrolls here. */}
          <table className="w-full text-left text-xs tabular-nums sm:text-sm">
            <caption className="sr-only">{ad.table.caption}</caption>
            <thead className="border-b border-slate-300 text-slate-700">
              <tr>
                {ad.table.columns.map((column) => (
                  <th key={column} scope="col" className="px-1 py-1 font-semibold first:pl-0 last:pr-0">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {ad.table.rows.map((row) => (
                <tr key={row.day} className="border-b border-slate-100">
                  <th scope="row" className="py-1 pr-1 font-normal whitespace-nowrap">
                    {row.day}
                  </th>
                  {row.cells.map((cell, i) => (
                    <td key={ad.table.columns[i + 1]} className="px-1 py-1 last:pr-0">
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </li>
  );
}

export function AdInsightsList({ ads, words }: { ads: AdInsightsView[]; words: AdInsightsWords }) {
  if (ads.length === 0) return null;
  return (
    <section aria-labelledby="ad-insights-heading" className="mt-6">
      <h2 id="ad-insights-heading" className="text-lg font-semibold">
        {words.heading}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{words.note}</p>
      <ul className="mt-3 space-y-3">
        {ads.map((ad) => (
          <AdInsights key={ad.listingId} ad={ad} />
        ))}
      </ul>
    </section>
  );
}
